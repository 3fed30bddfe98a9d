//! What the robot says aloud at the key moments of a game: short sentences, each square by the
//! one name a person standing at the board uses for it ("the centre", "the top left"; on a
//! bigger board its number). Pure: the panel hands them to the voice.

use crate::game::Cell;

/// The person's turn begins.
pub const YOUR_TURN: &str = "Your turn.";

/// The person pressed, and no new mark was seen.
pub const NO_NEW_MARK: &str = "I see no new mark. Draw it darker, then press.";

/// The program stops on an error; the screen says which.
pub const SOMETHING_WENT_WRONG: &str = "Something went wrong. Please look at my screen.";

/// How a game ended, as the robot says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    YouWin,
    IWin,
    Draw,
    Void,
}

/// The one spoken name of `cell` on a board `size` a side.
pub fn square(cell: Cell, size: usize) -> String {
    match cell.place(size) {
        Some(place) => format!("the {place}"),
        None => format!("square {}", cell.index(size) + 1),
    }
}

/// The robot's move.
pub fn my_move(cell: Cell, size: usize) -> String {
    format!("I play {}.", square(cell, size))
}

/// A faint dip the robot is not sure of, in `cells`.
pub fn not_sure(cells: &[Cell], size: usize) -> String {
    let names: Vec<String> = cells.iter().map(|&c| square(c, size)).collect();
    format!(
        "Is that a faint mark at {}? Draw it darker, then press.",
        names.join(" or ")
    )
}

/// New marks in `cells`, seen twice: which is the person's?
pub fn which_is_yours(cells: &[Cell], size: usize) -> String {
    let names: Vec<String> = cells.iter().map(|&c| square(c, size)).collect();
    format!(
        "I see new marks at {}. Which one is yours?",
        names.join(" and ")
    )
}

/// How the game ended.
pub fn ending(ending: Ending) -> &'static str {
    match ending {
        Ending::YouWin => "You win! Well played.",
        Ending::IWin => "I win.",
        Ending::Draw => "A draw.",
        Ending::Void => "I saw more than one new mark, so this game does not count.",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_question_of_which_new_mark_is_the_person_s_names_each_square_as_people_do() {
        let cells = [Cell { row: 0, col: 0 }, Cell { row: 1, col: 1 }];
        assert_eq!(
            which_is_yours(&cells, 3),
            "I see new marks at the top left and the centre. Which one is yours?"
        );
    }

    #[test]
    fn a_square_has_one_spoken_name_on_three_by_three_and_a_number_on_bigger_boards() {
        let centre = Cell { row: 1, col: 1 };
        assert_eq!(my_move(centre, 3), "I play the centre.");
        assert_eq!(my_move(Cell { row: 0, col: 2 }, 3), "I play the top right.");
        assert_eq!(my_move(Cell { row: 3, col: 3 }, 4), "I play square 16.");
        assert_eq!(
            not_sure(&[Cell { row: 0, col: 1 }], 3),
            "Is that a faint mark at the top middle? Draw it darker, then press."
        );
    }
}
