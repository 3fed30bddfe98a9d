//! However a run that drives motors ends, its session leaves every motor unpowered and the pen
//! up: ev3dev motors keep running after the process that started them is gone.

use ev3_tictactoe::app::safety::EmergencyStop;
use ev3_tictactoe::app::session::Session;
use ev3_tictactoe::config::Axis;
use ev3_tictactoe::config::RobotConfig;
use ev3_tictactoe::hw::sim::{SimBody, SimRobot, SimSettings};

fn a_run_that_fails_halfway(sim: &SimRobot, log: &std::path::Path) -> anyhow::Result<()> {
    let config = RobotConfig::default();
    let _session = Session::start(
        log,
        EmergencyStop::new(sim.robot(), config.pen.homing.duty_percent),
    )?;
    let mut robot = sim.robot();
    robot.columns.run_duty(40)?;
    robot.pen.run_duty(30)?;
    sim.world().advance(std::time::Duration::from_millis(300));
    anyhow::bail!("something went wrong with the motors running")
}

#[test]
fn a_session_that_ends_in_an_error_leaves_every_motor_unpowered_and_the_pen_up() {
    let sim = SimRobot::new(
        &SimBody::as_configured(&RobotConfig::default()),
        &SimSettings::default(),
    );
    let folder = tempfile::tempdir().unwrap();
    let pen_before = sim.world().motor(Axis::Pen).output_deg();
    let result = a_run_that_fails_halfway(&sim, &folder.path().join("run.log"));
    assert!(result.is_err());
    let world = sim.world();
    assert!(
        world.driven_motors().is_empty(),
        "still powered: {:?}",
        world.driven_motors()
    );
    assert!(
        world.motor(Axis::Pen).output_deg() < pen_before,
        "the pen went down and was not lifted: {} after {}",
        world.motor(Axis::Pen).output_deg(),
        pen_before
    );
}
