//! The simulated human's pen: marks drawn by hand in a square of the robot's grid.

use super::paper::{Author, Paper, PaperPoint};
use crate::config::BoardGeometry;
use crate::game::Cell;

/// How a person marks a square.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HandMark {
    /// The square coloured in, as the original robot asked for.
    Fill,
    /// An X corner to corner.
    Cross,
    /// An O.
    Ring,
    /// An X whose crossing is well off the square's centre line (20 degrees toward the next
    /// row), as a hurried hand draws it.
    CrossOffCentre,
    /// A small O (a fifth of the square across) drawn off centre, clear of the square's
    /// centre line.
    SmallRingOffCentre,
    /// A dot or smudge about 2 degrees across: not a mark.
    Dot,
}

impl HandMark {
    /// How a person usually writes a game mark: X as a cross, O as a ring.
    pub fn for_mark(mark: crate::game::Mark) -> HandMark {
        match mark {
            crate::game::Mark::X => HandMark::Cross,
            crate::game::Mark::O => HandMark::Ring,
        }
    }
}

/// Draws `mark` in `cell`, a little off centre and a little skewed, as a hand would.
pub fn draw(paper: &mut Paper, board: &BoardGeometry, cell: Cell, mark: HandMark) {
    let c = board.cell_centre(cell);
    let (cx, cy) = (f64::from(c.columns) + 3.0, f64::from(c.rows) - 2.0);
    let side = f64::from(board.square_deg);
    let p = PaperPoint::new;
    match mark {
        HandMark::Fill => {
            // Coloured in up to a little inside the grid lines, as the original asked.
            let half = side * 0.42;
            let mut zigzag = Vec::new();
            let mut y = cy - half;
            let mut left = true;
            while y <= cy + half {
                let x = if left { cx - half } else { cx + half };
                zigzag.push(p(x, y));
                zigzag.push(p(if left { cx + half } else { cx - half }, y));
                y += 4.0;
                left = !left;
            }
            paper.draw(Author::Human, &zigzag);
        }
        HandMark::Cross => cross(paper, cx, cy, side * 0.3),
        HandMark::Ring => ring(paper, cx, cy, side * 0.3),
        HandMark::CrossOffCentre => cross(paper, cx, cy + side * 0.2, side * 0.22),
        HandMark::SmallRingOffCentre => {
            ring(paper, cx - side * 0.15, cy - side * 0.22, side * 0.1);
        }
        HandMark::Dot => paper.draw(Author::Human, &[p(cx + 5.0, cy), p(cx + 6.0, cy)]),
    }
}

/// A hand-drawn X around (`cx`, `cy`), `half` wide either way, its strokes a little askew.
fn cross(paper: &mut Paper, cx: f64, cy: f64, half: f64) {
    let p = PaperPoint::new;
    paper.draw(
        Author::Human,
        &[p(cx - half, cy - half + 2.0), p(cx + half, cy + half)],
    );
    paper.draw(
        Author::Human,
        &[p(cx - half, cy + half), p(cx + half - 3.0, cy - half)],
    );
}

/// A hand-drawn O around (`cx`, `cy`), a little flattened.
fn ring(paper: &mut Paper, cx: f64, cy: f64, radius: f64) {
    let points: Vec<PaperPoint> = (0..=24)
        .map(|i| {
            let a = f64::from(i) / 24.0 * std::f64::consts::TAU;
            PaperPoint::new(cx + radius * a.cos(), cy + radius * 0.9 * a.sin())
        })
        .collect();
    paper.draw(Author::Human, &points);
}
