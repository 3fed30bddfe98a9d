//! The command line (placeholder while the core is built).
