//! The formats of the 0.3.1 dialect, one owner each: square names (GTP-style files
//! `a b c d e f g h j k l`, skipping `i`), colour names, `final_status` names and the
//! boxed board diagram.

use std::fmt::Write as _;

use crate::core::board::Board;
use crate::core::geometry::{Geometry, S11};
use crate::core::moves::Move;
use crate::core::outcome::Status;
use crate::core::position::IllegalMove;
use crate::core::role::Role;
use crate::core::square::Square;

/// The dialect's board: 0.3.1 plays 11x11 only.
const SIZE: u8 = S11::SIZE;

/// The file letters, a to l without i (as GTP letters its columns).
pub(crate) const FILES: [u8; SIZE as usize] = *b"abcdefghjkl";

/// The name of a square, e.g. `l4` for hnefi's `k4`.
pub(crate) fn square_name(sq: Square) -> String {
    let file = FILES.get(usize::from(sq.file())).copied().unwrap_or(b'?');
    format!("{}{}", char::from(file), sq.rank() + 1)
}

/// Reads a square name (either case): a file letter of [`FILES`], then a rank 1 to 11.
pub(crate) fn parse_square(text: &str) -> Result<Square, String> {
    let bad = || {
        format!(
            "'{}' is not a square: a file a to l without i, then a rank 1 to 11 (e.g. l4)",
            crate::core::excerpt::excerpt(text)
        )
    };
    let bytes = text.as_bytes();
    let (&first, rest) = bytes.split_first().ok_or_else(bad)?;
    let file = FILES
        .iter()
        .position(|&f| f == first.to_ascii_lowercase())
        .ok_or_else(bad)?;
    if rest.is_empty() || rest.len() > 2 || rest.first() == Some(&b'0') {
        return Err(bad());
    }
    if !rest.iter().all(u8::is_ascii_digit) {
        return Err(bad());
    }
    let rank = rest.iter().fold(0u8, |acc, d| acc * 10 + (d - b'0'));
    let file = u8::try_from(file).map_err(|_| bad())?;
    rank.checked_sub(1)
        .and_then(|r| Square::from_coords(file, r))
        .ok_or_else(bad)
}

/// The colour of a side: the attackers are black and move first, the defenders white.
pub(crate) const fn colour_name(role: Role) -> &'static str {
    match role {
        Role::Attacker => "black",
        Role::Defender => "white",
    }
}

/// Reads a colour (either case).
pub(crate) fn parse_colour(text: &str) -> Result<Role, String> {
    match text.to_ascii_lowercase().as_str() {
        "black" => Ok(Role::Attacker),
        "white" => Ok(Role::Defender),
        _ => Err(format!(
            "'{}' is not a colour: expected black (the attackers) or white (the defenders)",
            crate::core::excerpt::excerpt(text)
        )),
    }
}

/// The `final_status` reply: `black_wins`, `white_wins`, `draw` or `ongoing`.
pub(crate) fn status_name(status: Status) -> String {
    match status {
        Status::Ongoing => "ongoing".into(),
        Status::Over(o) => match o.winner {
            Some(winner) => format!("{}_wins", colour_name(winner)),
            None => "draw".into(),
        },
    }
}

/// A move as the dialect writes it: `FROM TO`.
pub(crate) fn move_name(mv: Move) -> String {
    format!("{} {}", square_name(mv.from), square_name(mv.to))
}

/// Why a move is illegal, in the dialect's names.
pub(crate) fn illegal_move_message(e: IllegalMove) -> String {
    match e {
        IllegalMove::NoPiece { role, square } => {
            format!("no {} piece on {}", colour_name(role), square_name(square))
        }
        IllegalMove::NotStraight(mv) => format!("{} is not a straight move", move_name(mv)),
        IllegalMove::Blocked(mv) => format!("{} is blocked", move_name(mv)),
        IllegalMove::Restricted(sq) => {
            format!("only the king may stop on {}", square_name(sq))
        }
        IllegalMove::TooFar { mv, limit } => format!(
            "{} slides farther than the {limit} square(s) the piece may move",
            move_name(mv)
        ),
        IllegalMove::Repetition(mv) => format!(
            "{} would repeat an earlier board position, which is not allowed",
            move_name(mv)
        ),
        IllegalMove::GameOver => "the game is over".into(),
    }
}

/// The board in a box, rank 11 at the top with the rank numbers on the left and the file
/// letters below: `X` attackers, `O` defenders, `K` the king, `R` an empty restricted
/// square (the corners and the throne), `.` an empty square.
pub(crate) fn board_diagram(board: &Board) -> String {
    let width = usize::from(SIZE);
    let mut out = format!("  ┌{}┐\n", "─".repeat(width));
    for rank in (0..SIZE).rev() {
        let _ = write!(out, "{:>2}│", rank + 1);
        for file in 0..SIZE {
            let c = match Square::from_coords(file, rank) {
                Some(sq) if board.piece_at(sq).is_none() && sq.is_restricted() => 'R',
                Some(sq) => board.char_at(sq),
                None => '?',
            };
            out.push(c);
        }
        out.push_str("│\n");
    }
    let _ = write!(
        out,
        "  └{}┘\n   {}",
        "─".repeat(width),
        String::from_utf8_lossy(&FILES).to_ascii_uppercase()
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_skip_i() {
        for sq in Square::all() {
            assert_eq!(parse_square(&square_name(sq)), Ok(sq));
        }
        assert_eq!(square_name(Square::from_coords(10, 3).unwrap()), "l4");
        assert_eq!(
            parse_square("J8"),
            Square::from_coords(8, 7).ok_or(String::new())
        );
        for bad in ["i4", "m1", "a0", "a12", "a", "", "a01", "a1x", "é1"] {
            assert!(parse_square(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn status_names() {
        use crate::core::outcome::Reason;
        assert_eq!(status_name(Status::Ongoing), "ongoing");
        let won = |winner| Status::won(winner, Reason::Resignation);
        assert_eq!(status_name(won(Role::Attacker)), "black_wins");
        assert_eq!(status_name(won(Role::Defender)), "white_wins");
        let drawn = Status::drawn(Reason::MoveLimit);
        assert_eq!(status_name(drawn), "draw");
    }

    #[test]
    fn the_start_diagram() {
        let d = board_diagram(&Board::start());
        let lines: Vec<&str> = d.lines().collect();
        assert_eq!(lines.len(), 14);
        assert_eq!(lines[1], "11│R..XXXXX..R│");
        assert_eq!(lines[6], " 6│XX.OOKOO.XX│");
        assert_eq!(lines[13], "   ABCDEFGHJKL");
    }
}
