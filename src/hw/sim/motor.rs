//! One simulated motor and what it drives: shaft, encoder, gear backlash and the hard ends of
//! its travel.

use crate::hw::{MotorState, Ramps, StopAction};
use std::collections::VecDeque;

/// A fault to inject into a simulated motor.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub enum MotorFault {
    #[default]
    None,
    /// The gear slips at the end of travel, so the motor never stalls there.
    NeverStalls,
    /// The motor cannot turn at all, from the start.
    Jammed,
    /// The cable comes out once the shaft has turned this many degrees in all.
    DisconnectsAfter { turned_deg: f64 },
}

/// The physical make-up of one motor and its drive.
#[derive(Debug, Clone, PartialEq)]
pub struct MotorPhysics {
    pub max_speed_deg_per_s: f64,
    /// The most the motor can speed up or slow down, driven as hard as ev3dev's regulation
    /// drives it, with its load: what a run follows where its ramps ask for more, or set none.
    pub acceleration_deg_per_s2: f64,
    /// Play between shaft and output: turning back, the shaft moves this far before the output.
    pub backlash_deg: f64,
    /// The output's hard ends, in the output's own coordinates.
    pub low_end_deg: f64,
    pub high_end_deg: f64,
    /// Where the output starts.
    pub start_deg: f64,
    /// The speed a duty cycle gives, as a share of the no-load speed for that duty: below 1
    /// for a loaded axis or a low battery (a crawl).
    pub duty_speed_factor: f64,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Command {
    Stopped,
    Hold {
        shaft_deg: f64,
    },
    /// As ev3dev's `run-to-abs-pos`: `heading` (+1 or -1) is the way to the target when the
    /// run began; once the shaft is there or past it, the run ends holding the target.
    ToPosition {
        shaft_deg: f64,
        speed: f64,
        heading: f64,
    },
    Duty {
        percent: f64,
    },
    /// As ev3dev's `stop` with a ramp set: slowing down at `rate`, then `then`.
    RampingDown {
        rate: f64,
        then: StopAction,
    },
}

/// ev3dev averages the encoder over a short window to give a speed; so does the simulator.
const SPEED_WINDOW_STEPS: usize = 40;

/// As ev3dev's `legoev3_motor.c`: a driven motor reads `stalled` once its speed has read 0 for
/// longer than this.
const STALLED_AFTER_S: f64 = 0.1;

#[derive(Debug, Clone)]
pub struct SimMotor {
    physics: MotorPhysics,
    /// As the program set them (ev3dev's `ramp_up_sp` and `ramp_down_sp`).
    ramps: Ramps,
    fault: MotorFault,
    shaft_deg: f64,
    output_deg: f64,
    encoder_zero_deg: f64,
    velocity: f64,
    command: Command,
    recent_shaft_deg: VecDeque<f64>,
    step_s: f64,
    turned_deg: f64,
    disconnected: bool,
    /// How long the motor has been driven with its speed reading 0.
    still_driven_s: f64,
    /// How far the shaft has turned without the output: the teeth a pinion skipped on its rack.
    skipped_deg: f64,
}

impl SimMotor {
    pub fn new(physics: MotorPhysics, fault: MotorFault, step_s: f64) -> SimMotor {
        let start = physics.start_deg;
        SimMotor {
            physics,
            ramps: Ramps::NONE,
            fault,
            shaft_deg: start,
            output_deg: start,
            encoder_zero_deg: 0.0,
            velocity: 0.0,
            command: Command::Stopped,
            recent_shaft_deg: VecDeque::from(vec![start; SPEED_WINDOW_STEPS]),
            step_s,
            turned_deg: 0.0,
            disconnected: false,
            still_driven_s: 0.0,
            skipped_deg: 0.0,
        }
    }

    /// The pinion skips on its rack: the shaft (and the encoder) turned `deg` further than the
    /// output, which from now on lags the shaft by that much more, until homing finds the
    /// output's end again.
    pub fn skip(&mut self, deg: f64) {
        self.skipped_deg += deg;
        let (low, high) = (self.physics.low_end_deg, self.physics.high_end_deg);
        self.output_deg = (self.output_deg - deg).clamp(low, high);
    }

    /// Injects a fault from now on.
    pub fn inject(&mut self, fault: MotorFault) {
        self.fault = fault;
    }

    pub fn is_disconnected(&self) -> bool {
        self.disconnected
    }

    /// Where the driven part is, in its own coordinates (0 at the low end).
    pub fn output_deg(&self) -> f64 {
        self.output_deg
    }

    /// True while power is applied.
    pub fn is_driven(&self) -> bool {
        !self.disconnected && !matches!(self.command, Command::Stopped)
    }

    pub fn set_ramps(&mut self, ramps: Ramps) {
        self.ramps = ramps;
    }

    pub fn run_to_position(&mut self, target_deg: i32, speed_deg_per_s: u32) {
        let speed = f64::from(speed_deg_per_s).min(self.physics.max_speed_deg_per_s);
        let shaft_deg = f64::from(target_deg) + self.encoder_zero_deg;
        self.command = Command::ToPosition {
            shaft_deg,
            speed,
            // ev3dev takes the way from the encoder's whole count at the start.
            heading: if f64::from(self.position_deg()) > f64::from(target_deg) {
                -1.0
            } else {
                1.0
            },
        };
    }

    pub fn run_duty(&mut self, duty_percent: i8) {
        self.command = Command::Duty {
            percent: f64::from(duty_percent.clamp(-100, 100)),
        };
    }

    /// As ev3dev's `stop` command: at once without ramps; with either ramp set, the speed
    /// first comes down to 0 at the ramp down's rate (at once if that is 0), then `action`.
    pub fn stop(&mut self, action: StopAction) {
        let ramped = self.ramps != Ramps::NONE && self.ramps.down_deg_per_s2 > 0;
        if ramped && self.velocity.abs() > 0.0 && self.is_driven() {
            self.command = Command::RampingDown {
                rate: f64::from(self.ramps.down_deg_per_s2),
                then: action,
            };
        } else {
            self.stop_at_once(action);
        }
    }

    /// Stops with `action` now, whatever ramps are set.
    pub fn stop_at_once(&mut self, action: StopAction) {
        self.command = match action {
            StopAction::Hold => Command::Hold {
                shaft_deg: self.shaft_deg,
            },
            StopAction::Coast | StopAction::Brake => Command::Stopped,
        };
    }

    pub fn position_deg(&self) -> i32 {
        (self.shaft_deg - self.encoder_zero_deg).round() as i32
    }

    pub fn set_position_deg(&mut self, position_deg: i32) {
        self.encoder_zero_deg = self.shaft_deg - f64::from(position_deg);
    }

    pub fn speed_deg_per_s(&self) -> f64 {
        let oldest = self
            .recent_shaft_deg
            .front()
            .copied()
            .unwrap_or(self.shaft_deg);
        (self.shaft_deg - oldest) / (SPEED_WINDOW_STEPS as f64 * self.step_s)
    }

    pub fn state(&self) -> MotorState {
        let commanded = self.commanded_speed();
        let driven = self.is_running();
        MotorState {
            running: driven,
            ramping: driven
                && (matches!(self.command, Command::RampingDown { .. })
                    || (self.velocity.abs() - commanded).abs() > 1.0),
            holding: matches!(self.command, Command::Hold { .. }),
            // As ev3dev: driven, and the speed has read 0 for more than 100 ms.
            stalled: driven && self.still_driven_s > STALLED_AFTER_S,
            overloaded: false,
        }
    }

    /// Driven toward a speed or a position (not holding, not stopped).
    fn is_running(&self) -> bool {
        self.is_driven() && !matches!(self.command, Command::Hold { .. })
    }

    fn commanded_speed(&self) -> f64 {
        match self.command {
            Command::ToPosition { speed, .. } => speed,
            Command::RampingDown { .. } => 0.0,
            Command::Duty { percent } => {
                percent.abs() / 100.0
                    * self.physics.max_speed_deg_per_s
                    * self.physics.duty_speed_factor
            }
            Command::Stopped | Command::Hold { .. } => 0.0,
        }
    }

    /// Advances the motor by one time step.
    pub fn step(&mut self) {
        let dt = self.step_s;
        if self.disconnected {
            self.command = Command::Stopped;
        }
        let most = self.physics.acceleration_deg_per_s2;
        let mut speeding_up_at = most;
        let wanted = match self.command {
            Command::Stopped => 0.0,
            Command::Hold { shaft_deg } => ((shaft_deg - self.shaft_deg) * 20.0).clamp(
                -self.physics.max_speed_deg_per_s,
                self.physics.max_speed_deg_per_s,
            ),
            Command::ToPosition {
                shaft_deg,
                speed,
                heading,
            } => {
                let ahead = (shaft_deg - self.shaft_deg) * heading;
                if ahead <= 0.0 || (ahead < 0.5 && self.velocity.abs() <= most * dt * 2.0) {
                    // There (or past it: with no ramp down, by the whole braking distance):
                    // ev3dev ends the run and holds the target.
                    self.command = Command::Hold { shaft_deg };
                    (shaft_deg - self.shaft_deg) * 20.0
                } else {
                    if self.ramps.up_deg_per_s2 > 0 {
                        speeding_up_at = most.min(f64::from(self.ramps.up_deg_per_s2));
                    }
                    let down = f64::from(self.ramps.down_deg_per_s2);
                    if down > 0.0 {
                        // The ramp down: slowing in time to stop on the target.
                        heading * speed.min((2.0 * down * ahead).sqrt())
                    } else {
                        heading * speed
                    }
                }
            }
            Command::Duty { percent } => {
                percent / 100.0 * self.physics.max_speed_deg_per_s * self.physics.duty_speed_factor
            }
            Command::RampingDown { rate, then } => {
                let slower = self.velocity.abs() - rate.min(most) * dt;
                if slower <= 0.0 {
                    self.stop_at_once(then);
                    0.0
                } else {
                    self.velocity.signum() * slower
                }
            }
        };
        let speeding_up = wanted.abs() > self.velocity.abs() && wanted * self.velocity >= 0.0;
        let max_change = if speeding_up { speeding_up_at } else { most } * dt;
        self.velocity += (wanted - self.velocity).clamp(-max_change, max_change);
        if self.fault == MotorFault::Jammed {
            self.velocity = 0.0;
        }
        let before = self.shaft_deg;
        self.shaft_deg += self.velocity * dt;
        self.move_output();
        self.turned_deg += (self.shaft_deg - before).abs();
        if let MotorFault::DisconnectsAfter { turned_deg } = self.fault {
            if self.turned_deg >= turned_deg {
                self.disconnected = true;
            }
        }
        self.recent_shaft_deg.pop_front();
        self.recent_shaft_deg.push_back(self.shaft_deg);
        if self.is_running() && self.speed_deg_per_s().round() == 0.0 {
            self.still_driven_s += dt;
        } else {
            self.still_driven_s = 0.0;
        }
    }

    /// The output follows the shaft through the gear's play, and stops at its hard ends; there
    /// the shaft stops too, unless the gear slips.
    fn move_output(&mut self) {
        let half_play = self.physics.backlash_deg / 2.0;
        // Where the shaft would put the output, past the teeth it skipped.
        let drive = self.shaft_deg - self.skipped_deg;
        if drive - self.output_deg > half_play {
            self.output_deg = drive - half_play;
        } else if self.output_deg - drive > half_play {
            self.output_deg = drive + half_play;
        }
        let (low, high) = (self.physics.low_end_deg, self.physics.high_end_deg);
        let slips = self.fault == MotorFault::NeverStalls;
        if self.output_deg < low {
            self.output_deg = low;
            if !slips && drive < low - half_play {
                self.shaft_deg = low - half_play + self.skipped_deg;
                self.velocity = 0.0;
            }
        } else if self.output_deg > high {
            self.output_deg = high;
            if !slips && drive > high + half_play {
                self.shaft_deg = high + half_play + self.skipped_deg;
                self.velocity = 0.0;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn motor(fault: MotorFault) -> SimMotor {
        SimMotor::new(
            MotorPhysics {
                max_speed_deg_per_s: 1050.0,
                acceleration_deg_per_s2: 6000.0,
                backlash_deg: 4.0,
                low_end_deg: 0.0,
                high_end_deg: 400.0,
                start_deg: 100.0,
                duty_speed_factor: 1.0,
            },
            fault,
            0.001,
        )
    }

    fn run_for(motor: &mut SimMotor, ms: usize) {
        for _ in 0..ms {
            motor.step();
        }
    }

    #[test]
    fn a_run_to_position_ends_holding_on_the_target() {
        let mut m = motor(MotorFault::None);
        m.run_to_position(250, 400);
        assert!(m.state().running);
        run_for(&mut m, 1000);
        assert_eq!(m.position_deg(), 250);
        assert_eq!(
            m.state(),
            MotorState {
                holding: true,
                ..MotorState::default()
            }
        );
    }

    /// A motor whose runs ramp at the rate it can follow, as the firmware sets them.
    fn ramped(fault: MotorFault) -> SimMotor {
        let mut m = motor(fault);
        m.set_ramps(Ramps::both(6000));
        m
    }

    /// Steps the motor until its run ends, and on for half a second; returns how far the
    /// shaft went at most along `toward` (+1 or -1), and when the run ended, in ms.
    fn run_to_the_end(m: &mut SimMotor, toward: f64) -> (f64, usize) {
        let mut furthest = f64::MIN;
        let mut ended = None;
        for ms in 1..5000 {
            m.step();
            furthest = furthest.max(m.shaft_deg * toward);
            match ended {
                None if !m.state().running => ended = Some(ms),
                Some(at) if ms > at + 500 => return (furthest * toward, at),
                _ => {}
            }
        }
        panic!("the run did not end");
    }

    #[test]
    fn without_a_ramp_down_a_run_overshoots_by_its_braking_distance_and_holds_back() {
        // As ev3dev's update_position with ramp_down_sp 0: full speed to the target, then hold.
        let mut m = motor(MotorFault::None);
        m.run_to_position(300, 600);
        let (furthest, _) = run_to_the_end(&mut m, 1.0);
        let braking = 600.0_f64.powi(2) / (2.0 * 6000.0);
        assert!((furthest - 300.0 - braking).abs() < 2.0, "{furthest}");
        assert!(m.state().holding);
        run_for(&mut m, 1000);
        assert_eq!(m.position_deg(), 300);
        // Pulled back, the output is on the far side of the play (half of its 4 degrees): it
        // arrived going backward, so a drawing's approach from one side is undone.
        assert!((m.output_deg() - 302.0).abs() < 0.5, "{}", m.output_deg());
    }

    #[test]
    fn with_a_ramp_down_a_run_slows_in_time_and_stops_on_its_target() {
        let mut m = ramped(MotorFault::None);
        m.run_to_position(300, 600);
        let (furthest, ms) = run_to_the_end(&mut m, 1.0);
        assert!(furthest < 300.5, "{furthest}");
        // 200 degrees at 600 deg/s, plus a tenth of a second speeding up and slowing down.
        assert!((425..=445).contains(&ms), "{ms} ms");
    }

    #[test]
    fn a_ramp_gentler_than_the_motor_sets_the_pace_both_ways() {
        let mut m = motor(MotorFault::None);
        m.set_ramps(Ramps::both(2000));
        m.run_to_position(400, 600);
        let (furthest, ms) = run_to_the_end(&mut m, 1.0);
        assert!(furthest < 400.5, "{furthest}");
        // 300 degrees from 100: 120 of them at speed (0.2 s), and 0.3 s each way to and from
        // it, over 90 degrees each.
        assert!((790..=820).contains(&ms), "{ms} ms");
    }

    #[test]
    fn with_ramps_set_a_stop_comes_down_the_ramp_first_as_in_ev3dev() {
        let mut m = ramped(MotorFault::None);
        m.run_to_position(1000, 600);
        run_for(&mut m, 300);
        let at = m.shaft_deg;
        m.stop(StopAction::Brake);
        assert!(m.state().running && m.state().ramping);
        run_for(&mut m, 200);
        assert!(!m.state().running);
        // 600 deg/s down at 6000 deg/s²: 30 degrees more.
        assert!(
            (m.shaft_deg - at - 30.0).abs() < 2.0,
            "{}",
            m.shaft_deg - at
        );
        let mut at_once = ramped(MotorFault::None);
        at_once.run_to_position(1000, 600);
        run_for(&mut at_once, 300);
        at_once.stop_at_once(StopAction::Brake);
        assert!(!at_once.state().running);
    }

    #[test]
    fn the_output_lags_the_shaft_by_half_the_play_on_each_side() {
        let mut m = ramped(MotorFault::None);
        m.run_to_position(200, 400);
        run_for(&mut m, 1000);
        assert!((m.output_deg() - 198.0).abs() < 0.5, "{}", m.output_deg());
        m.run_to_position(150, 400);
        run_for(&mut m, 1000);
        assert!((m.output_deg() - 152.0).abs() < 0.5, "{}", m.output_deg());
    }

    #[test]
    fn at_a_hard_end_a_driven_motor_stops_and_reads_stalled() {
        let mut m = motor(MotorFault::None);
        m.run_duty(-30);
        run_for(&mut m, 2000);
        assert_eq!(m.output_deg(), 0.0);
        assert!(m.state().stalled);
        assert_eq!(m.speed_deg_per_s(), 0.0);
    }

    #[test]
    fn stalled_means_driven_at_speed_zero_for_more_than_100_ms_as_in_ev3dev() {
        let mut jammed = motor(MotorFault::Jammed);
        jammed.run_duty(25);
        run_for(&mut jammed, 90);
        assert!(!jammed.state().stalled);
        run_for(&mut jammed, 20);
        assert!(jammed.state().stalled);
        let mut free = motor(MotorFault::None);
        free.run_duty(25);
        run_for(&mut free, 300);
        assert!(!free.state().stalled);
    }

    #[test]
    fn a_loaded_motor_crawls_at_a_share_of_its_duty_speed() {
        let mut m = motor(MotorFault::None);
        m.physics.duty_speed_factor = 0.25;
        m.run_duty(40);
        run_for(&mut m, 500);
        let speed = m.speed_deg_per_s();
        assert!((speed - 105.0).abs() < 5.0, "{speed}");
    }

    #[test]
    fn a_slipping_gear_never_stalls_and_a_jammed_motor_never_turns() {
        let mut slipping = motor(MotorFault::NeverStalls);
        slipping.run_duty(-30);
        run_for(&mut slipping, 2000);
        assert!(!slipping.state().stalled);
        assert!(slipping.position_deg() < -300);
        let mut jammed = motor(MotorFault::Jammed);
        jammed.run_duty(-30);
        run_for(&mut jammed, 500);
        assert_eq!(jammed.position_deg(), 100);
        assert!(jammed.state().stalled);
    }

    #[test]
    fn a_motor_that_disconnects_stops_being_driven() {
        let mut m = motor(MotorFault::DisconnectsAfter { turned_deg: 50.0 });
        m.run_to_position(300, 400);
        run_for(&mut m, 1000);
        assert!(m.is_disconnected());
        assert!(!m.is_driven());
        assert!(m.position_deg() < 200);
    }
}
