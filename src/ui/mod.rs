//! The user interface, pure: the menu's state machine ([`menu`]), what each screen says ([`view`]),
//! the robot's eye in figures ([`eye_page`]), how a screen is drawn on the LCD ([`lcd`]), and what
//! the lights and sounds mean ([`cues`]). Nothing here touches a device; [`crate::app`] shows the
//! results.

pub mod cues;
pub mod eye_page;
pub mod lcd;
pub mod menu;
pub mod speech;
pub mod view;
