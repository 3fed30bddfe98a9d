//! What making the machine safe achieved, measured after the stop rather than assumed, so a
//! message never says "the pen is up" over a pen still on the paper.

use crate::config::Axis;

/// Where the pen ended after the safe stop.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PenAfterStop {
    /// Driven to its homed top and seen to arrive.
    Up,
    /// The pen lift had not been homed, so its top was not known: it was driven up until it
    /// stopped, which is its top stop unless something blocked it.
    DrivenUpUnhomed,
    /// It could not be lifted; why.
    NotLifted(String),
}

/// The machine as the safe stop left it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SafeState {
    /// Motors that refused the stop command (unplugged, or the driver failed), with why: they
    /// may still be powered.
    pub not_stopped: Vec<(Axis, String)>,
    pub pen: PenAfterStop,
}

impl SafeState {
    /// Everything stopped and the pen up.
    pub fn is_all_safe(&self) -> bool {
        self.not_stopped.is_empty() && self.pen == PenAfterStop::Up
    }

    /// In words, for the screen and the terminal: "Motors off, pen up." when all went well,
    /// else what did not, and what to do about it by hand.
    pub fn describe(&self) -> String {
        let lift_by_hand = "and may still touch the paper: lift it by hand (the pen-lift gear \
                            turns freely with the motor off)";
        if self.not_stopped.is_empty() {
            return match &self.pen {
                PenAfterStop::Up => "Motors off, pen up.".to_string(),
                PenAfterStop::DrivenUpUnhomed => "Motors off, pen driven up to its stop (it was \
                                                  not homed: check it is clear of the paper)."
                    .to_string(),
                PenAfterStop::NotLifted(why) => {
                    format!("Motors off, but the pen could not be lifted ({why}) {lift_by_hand}.")
                }
            };
        }
        let refused: Vec<String> = self
            .not_stopped
            .iter()
            .map(|(axis, why)| format!("the {} ({why})", axis.motor_name()))
            .collect();
        let mut said = format!(
            "Motors off except {}, which did not answer the stop: if it still turns, switch the \
             brick off.",
            refused.join(" and ")
        );
        match &self.pen {
            PenAfterStop::Up => said.push_str(" The pen is up."),
            PenAfterStop::DrivenUpUnhomed => said.push_str(
                " The pen was driven up to its stop (it was not homed: check it is clear of the \
                 paper).",
            ),
            PenAfterStop::NotLifted(_) => {
                said.push_str(&format!(" The pen could not be lifted {lift_by_hand}."))
            }
        }
        said
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_safe_is_said_in_four_words() {
        let state = SafeState {
            not_stopped: vec![],
            pen: PenAfterStop::Up,
        };
        assert!(state.is_all_safe());
        assert_eq!(state.describe(), "Motors off, pen up.");
    }

    #[test]
    fn a_pen_that_could_not_be_lifted_is_said_with_how_to_lift_it_by_hand() {
        let state = SafeState {
            not_stopped: vec![],
            pen: PenAfterStop::NotLifted("pen lift: jammed".into()),
        };
        assert!(!state.is_all_safe());
        let said = state.describe();
        assert!(
            said.contains("could not be lifted (pen lift: jammed)"),
            "{said}"
        );
        assert!(said.contains("lift it by hand"), "{said}");
        assert!(!said.contains("pen up"), "{said}");
    }

    #[test]
    fn a_motor_that_refused_to_stop_is_named() {
        let state = SafeState {
            not_stopped: vec![(Axis::Rows, "no such device".into())],
            pen: PenAfterStop::Up,
        };
        let said = state.describe();
        assert!(
            said.starts_with(
                "Motors off except the rows motor (no such device), which did not \
                              answer the stop"
            ),
            "{said}"
        );
    }
}
