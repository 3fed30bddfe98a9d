//! The ev3dev implementation against the emulated brick (`emulated_brick`): the attributes
//! written and their order, values read back, the kernel's refusals, the brick's buttons, and
//! what a device that is missing or goes away gives.
//!
//! The tests build ev3dev-lang-rust with `override-driver-path` and find the classes at
//! EV3DEV_DRIVER_PATH (set in .cargo/config.toml), where the brick is mounted.

mod emulated_brick;
mod skipping;

use emulated_brick::{mount, Tree};
use ev3_tictactoe::config::{MotorKind, Polarity, RobotConfig};
use ev3_tictactoe::hw::ev3dev::buttons::key;
use ev3_tictactoe::hw::ev3dev::{open_robot, ConsoleMode, Ev3Battery, Ev3Buttons, Ev3Lights};
use ev3_tictactoe::hw::{
    Battery, ButtonPad, Buttons, HwError, LightColour, MotorState, Ramps, StatusLights, StopAction,
};
use std::path::Path;
use std::time::Duration;

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

#[test]
fn opening_a_motor_resets_it_before_setting_polarity_and_stop_action() {
    require_fuse!();
    let brick = mount(Tree::default_robot());
    brick.tree().set("tacho-motor/motor2/stop_action", "hold");
    brick.tree().set("tacho-motor/motor2/speed_sp", "77");
    let _robot = open_robot(&RobotConfig::default().wiring()).unwrap();
    assert_eq!(
        brick.tree().writes_under("tacho-motor/motor2"),
        pairs(&[
            ("command", "reset"),
            ("polarity", "normal"),
            ("stop_action", "coast")
        ])
    );
    assert_eq!(brick.tree().value("tacho-motor/motor2/speed_sp"), "0");
    let mut inversed = RobotConfig::default();
    inversed.rows.polarity = Polarity::Inversed;
    let _robot = open_robot(&inversed.wiring()).unwrap();
    assert_eq!(
        brick.tree().value("tacho-motor/motor0/polarity"),
        "inversed"
    );
    assert_eq!(
        brick.tree().value("lego-sensor/sensor0/mode"),
        "COL-REFLECT"
    );
}

#[test]
fn the_colour_sensors_mode_is_written_only_when_it_differs() {
    require_fuse!();
    let brick = mount(Tree::default_robot());
    let _robot = open_robot(&RobotConfig::default().wiring()).unwrap();
    let _again = open_robot(&RobotConfig::default().wiring()).unwrap();
    let mode_writes = brick
        .tree()
        .writes_under("lego-sensor/sensor0")
        .into_iter()
        .filter(|(attribute, _)| attribute == "mode")
        .count();
    assert_eq!(
        mode_writes, 1,
        "a second write would restart the sensor's mode"
    );
}

#[test]
fn a_run_to_a_position_writes_speed_stop_action_and_target_before_the_command() {
    require_fuse!();
    let brick = mount(Tree::default_robot());
    let mut robot = open_robot(&RobotConfig::default().wiring()).unwrap();
    brick.tree().writes.clear();
    robot.columns.run_to_position(250, 400).unwrap();
    assert_eq!(
        brick.tree().writes_under("tacho-motor/motor2"),
        pairs(&[
            ("speed_sp", "400"),
            ("stop_action", "hold"),
            ("position_sp", "250"),
            ("command", "run-to-abs-pos"),
        ])
    );
    // Read back through the same open files: the position and state the driver reports.
    assert_eq!(robot.columns.position_deg().unwrap(), 250);
    assert_eq!(
        robot.columns.state().unwrap(),
        MotorState {
            holding: true,
            ..MotorState::default()
        }
    );
}

#[test]
fn set_points_are_written_only_when_they_change_ramps_in_ev3devs_milliseconds_and_taken_off_before_a_stop(
) {
    require_fuse!();
    let brick = mount(Tree::default_robot());
    let mut robot = open_robot(&RobotConfig::default().wiring()).unwrap();
    brick.tree().writes.clear();
    robot.columns.set_ramps(Ramps::both(3200)).unwrap();
    robot.columns.run_to_position(250, 400).unwrap();
    // The driver keeps every set point until it is written again (`tacho_motor_class.c`):
    // the second run writes only what changed, and the command.
    robot.columns.run_to_position(100, 400).unwrap();
    // With a ramp set, ev3dev's stop would come down it first: a stop must be at once.
    robot.columns.stop(StopAction::Brake).unwrap();
    let mut expected = vec![
        ("ramp_up_sp", "328"),
        ("ramp_down_sp", "328"),
        ("speed_sp", "400"),
        ("stop_action", "hold"),
        ("position_sp", "250"),
        ("command", "run-to-abs-pos"),
    ];
    expected.extend([("position_sp", "100"), ("command", "run-to-abs-pos")]);
    expected.extend([
        ("ramp_up_sp", "0"),
        ("ramp_down_sp", "0"),
        ("stop_action", "brake"),
        ("command", "stop"),
    ]);
    assert_eq!(
        brick.tree().writes_under("tacho-motor/motor2"),
        pairs(&expected)
    );
    // The next run puts back what the stop changed: the ramps and the stop action.
    brick.tree().writes.clear();
    robot.columns.run_to_position(200, 400).unwrap();
    assert_eq!(
        brick.tree().writes_under("tacho-motor/motor2"),
        pairs(&[
            ("ramp_up_sp", "328"),
            ("ramp_down_sp", "328"),
            ("stop_action", "hold"),
            ("position_sp", "200"),
            ("command", "run-to-abs-pos"),
        ])
    );
}

#[test]
fn the_emulated_driver_refuses_a_ramp_as_ev3dev_does() {
    require_fuse!();
    let brick = mount(Tree::default_robot());
    let ramp = emulated_brick::mount_point().join("sys/class/tacho-motor/motor2/ramp_down_sp");
    // As a program writes an attribute: opened for writing, without truncating.
    let write = |value: &str| {
        use std::io::Write;
        let mut file = std::fs::OpenOptions::new().write(true).open(&ramp)?;
        file.write_all(value.as_bytes())
    };
    write("60000").unwrap();
    for refused in ["60001", "-1", "fast"] {
        let error = write(refused).unwrap_err();
        assert_eq!(error.raw_os_error(), Some(22), "{refused}: {error}");
    }
    assert_eq!(
        brick.tree().value("tacho-motor/motor2/ramp_down_sp"),
        "60000"
    );
}

#[test]
fn speeds_above_the_motors_max_speed_are_held_to_it_not_refused() {
    require_fuse!();
    let brick = mount(Tree::default_robot());
    let mut robot = open_robot(&RobotConfig::default().wiring()).unwrap();
    robot.pen.run_to_position(20, 5000).unwrap();
    assert_eq!(brick.tree().value("tacho-motor/motor1/speed_sp"), "1560");
    robot.rows.run_to_position(20, 5000).unwrap();
    assert_eq!(brick.tree().value("tacho-motor/motor0/speed_sp"), "1050");
}

#[test]
fn duty_runs_stops_and_the_origin_are_written_as_ev3dev_expects() {
    require_fuse!();
    let brick = mount(Tree::default_robot());
    let mut robot = open_robot(&RobotConfig::default().wiring()).unwrap();
    brick.tree().writes.clear();
    robot.rows.run_duty(-25).unwrap();
    robot.rows.stop(StopAction::Brake).unwrap();
    robot.rows.set_position_deg(-10).unwrap();
    assert_eq!(
        brick.tree().writes_under("tacho-motor/motor0"),
        pairs(&[
            ("duty_cycle_sp", "-25"),
            ("command", "run-direct"),
            ("stop_action", "brake"),
            ("command", "stop"),
            ("position", "-10"),
        ])
    );
    // A shorter value written over a longer one replaces it, as sysfs does.
    robot.rows.stop(StopAction::Hold).unwrap();
    assert_eq!(brick.tree().value("tacho-motor/motor0/stop_action"), "hold");
    assert_eq!(robot.rows.position_deg().unwrap(), -10);
}

#[test]
fn the_kernels_refusal_to_move_the_origin_of_a_running_motor_is_a_named_error() {
    require_fuse!();
    let _brick = mount(Tree::default_robot());
    let mut robot = open_robot(&RobotConfig::default().wiring()).unwrap();
    robot.rows.run_duty(30).unwrap();
    let error = robot.rows.set_position_deg(0).unwrap_err();
    let message = error.to_string();
    assert!(
        message.contains("large motor (rows axis) on outA") && message.contains("position"),
        "{message}"
    );
    assert!(message.to_lowercase().contains("busy"), "{message}");
}

#[test]
fn motor_state_flags_and_speed_are_read_from_the_driver() {
    require_fuse!();
    let brick = mount(Tree::default_robot());
    let mut robot = open_robot(&RobotConfig::default().wiring()).unwrap();
    brick
        .tree()
        .set("tacho-motor/motor1/state", "running stalled");
    brick.tree().set("tacho-motor/motor1/speed", "-12");
    assert_eq!(
        robot.pen.state().unwrap(),
        MotorState {
            running: true,
            stalled: true,
            ..MotorState::default()
        }
    );
    assert_eq!(robot.pen.speed_deg_per_s().unwrap(), -12);
}

#[test]
fn sensors_read_reflected_light_and_touch() {
    require_fuse!();
    let brick = mount(Tree::default_robot());
    let mut robot = open_robot(&RobotConfig::default().wiring()).unwrap();
    brick.tree().set("lego-sensor/sensor0/value0", "37");
    assert_eq!(robot.light.reflected_percent().unwrap(), 37);
    brick.tree().set("lego-sensor/sensor0/value0", "8");
    assert_eq!(robot.light.reflected_percent().unwrap(), 8);
    assert!(!robot.touch.is_pressed().unwrap());
    brick.tree().set("lego-sensor/sensor1/value0", "1");
    assert!(robot.touch.is_pressed().unwrap());
}

#[test]
fn the_status_lights_drop_brickruns_heartbeat_before_showing_a_colour() {
    require_fuse!();
    let brick = mount(Tree::default_robot());
    let mut lights = Ev3Lights::open().unwrap();
    lights.set(LightColour::Red, LightColour::Amber).unwrap();
    let tree = brick.tree();
    let leds = ["led0:red", "led0:green", "led1:red", "led1:green"];
    for led in leds {
        let writes = tree.writes_under(&format!("leds/{led}:brick-status"));
        assert_eq!(writes[0], ("trigger".into(), "none".into()), "{led}");
    }
    let brightness = |led: &str| tree.value(&format!("leds/{led}:brick-status/brightness"));
    assert_eq!(leds.map(brightness), ["255", "0", "255", "255"]);
    drop(tree);
    let volts = Ev3Battery::open().unwrap().voltage_v().unwrap();
    assert!((volts - 7.512).abs() < 1e-4, "{volts}");
}

#[test]
fn the_status_lights_write_only_the_leds_a_new_colour_changes() {
    require_fuse!();
    let brick = mount(Tree::default_robot());
    let mut lights = Ev3Lights::open().unwrap();
    lights.set(LightColour::Green, LightColour::Green).unwrap();
    let before = brick.tree().accesses.len();
    // Green to amber on the left lights its red LED; the right stays green.
    lights.set(LightColour::Amber, LightColour::Green).unwrap();
    lights.set(LightColour::Amber, LightColour::Green).unwrap();
    let tree = brick.tree();
    assert_eq!(tree.accesses.len() - before, 1, "{:?}", tree.writes);
    assert_eq!(
        tree.writes.last().unwrap(),
        &(
            "sys/class/leds/led0:red:brick-status/brightness".to_string(),
            "255".to_string()
        )
    );
}

#[test]
fn the_brick_buttons_are_read_with_one_key_state_request() {
    require_fuse!();
    let brick = mount(Tree::default_robot());
    let mut buttons = Ev3Buttons::open().unwrap();
    assert_eq!(buttons.pressed().unwrap(), Buttons::default());
    brick.tree().press_key(key::LEFT, Duration::from_secs(5));
    brick
        .tree()
        .press_key(key::BACKSPACE, Duration::from_secs(5));
    assert_eq!(
        buttons.pressed().unwrap(),
        Buttons {
            left: true,
            back: true,
            ..Buttons::default()
        }
    );
    let requests = brick.tree().ioctls.len();
    assert_eq!(requests, 3, "one request per reading, one when opened");
}

#[test]
fn the_console_is_switched_to_graphics_and_back_once() {
    require_fuse!();
    let brick = mount(Tree::default_robot());
    let console = ConsoleMode::take_over().unwrap();
    console.restore();
    drop(console);
    let calls: Vec<u32> = brick.tree().ioctls.iter().map(|(_, cmd)| *cmd).collect();
    assert_eq!(calls, [0x4B3A, 0x4B3A], "graphics, then text, and no more");
}

#[test]
fn a_missing_or_wrong_device_is_named_with_its_port() {
    require_fuse!();
    let _brick = mount(Tree::default_robot());
    let mut config = RobotConfig::default();
    config.pen.port = "outD".into();
    let err = open_robot(&config.wiring()).err().unwrap();
    assert_eq!(
        err.to_string(),
        "no medium motor (pen lift) on outD: check the cable"
    );
    let mut config = RobotConfig::default();
    config.rows.kind = MotorKind::Medium;
    let err = open_robot(&config.wiring()).err().unwrap();
    assert_eq!(
        err.to_string(),
        "no medium motor (rows axis) on outA: check the cable"
    );
    let mut config = RobotConfig::default();
    config.sensing.colour_port = "in2".into();
    let err = open_robot(&config.wiring()).err().unwrap();
    assert_eq!(err.to_string(), "no colour sensor on in2: check the cable");
}

#[test]
fn an_attribute_that_cannot_be_opened_is_named_when_the_motor_is_opened() {
    require_fuse!();
    let brick = mount(Tree::default_robot());
    brick
        .tree()
        .nodes
        .remove("sys/class/tacho-motor/motor2/max_speed");
    let message = open_robot(&RobotConfig::default().wiring())
        .err()
        .expect("max_speed is missing")
        .to_string();
    assert!(
        message.contains("large motor (columns axis) on outC")
            && message.contains("tacho-motor/motor2/max_speed"),
        "{message}"
    );
}

#[test]
fn a_motor_unplugged_after_opening_is_reported_as_disconnected() {
    require_fuse!();
    let brick = mount(Tree::default_robot());
    let mut robot = open_robot(&RobotConfig::default().wiring()).unwrap();
    assert_eq!(robot.rows.position_deg().unwrap(), 0);
    brick.tree().unplug("tacho-motor/motor0");
    let disconnected = HwError::Disconnected {
        device: "large motor (rows axis) on outA".into(),
    };
    // Attributes never used before the cable came out are no different: all were opened.
    assert_eq!(robot.rows.position_deg().unwrap_err(), disconnected);
    assert_eq!(
        robot.rows.stop(StopAction::Coast).unwrap_err(),
        disconnected
    );
    assert_eq!(robot.rows.run_duty(10).unwrap_err(), disconnected);
    // The other motors, numbered after it, still answer.
    assert_eq!(robot.columns.position_deg().unwrap(), 0);
}

#[test]
fn the_mount_point_is_the_driver_path_the_tests_were_built_with() {
    assert_eq!(
        Path::new(ev3dev_lang_rust::DRIVER_PATH),
        emulated_brick::mount_point().join("sys/class").as_path()
    );
}
