//! Scores (placeholder).
