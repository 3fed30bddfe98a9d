//! The real brick, through `ev3dev-lang-rust`.
