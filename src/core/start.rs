//! The usual start position of each board size, the last rank first (`X` attacker, `O`
//! defender, `K` king, `.` empty). A rule set may start elsewhere; these are the positions
//! of the games hnefi's users play on each size:
//!
//! - 7x7: Brandubh, and the hnefatafl.org server's 7x7 game (the same diagram);
//! - 9x9: Tablut as OpenTafl plays it;
//! - 11x11: Copenhagen (and Fetlar, and the server's 11x11 game);
//! - 13x13: the hnefatafl.org server's 13x13 game;
//! - 15x15: OpenTafl's 15x15 Tablut (its `external-rules.conf`);
//! - 17x17: no game hnefi knows is played on 17x17, so this is hnefi's own diagram, the
//!   13x13 one grown by two files a side (40 attackers, 20 defenders and the king), for
//!   perft and the tests: a rules string names its own start;
//! - 19x19: Alea Evangelii as OpenTafl plays it (its `external-rules.conf`).
//!
//! Start positions are facts of the games (but 17x17's); the sources are named in
//! docs/RULES.md.

/// The 11x11 start position (Copenhagen), rank 11 first.
pub(crate) const START_DIAGRAM: [&str; 11] = [
    "...XXXXX...",
    ".....X.....",
    "...........",
    "X....O....X",
    "X...OOO...X",
    "XX.OOKOO.XX",
    "X...OOO...X",
    "X....O....X",
    "...........",
    ".....X.....",
    "...XXXXX...",
];

const START_7: [&str; 7] = [
    "...X...", "...X...", "...O...", "XXOKOXX", "...O...", "...X...", "...X...",
];

const START_9: [&str; 9] = [
    "...XXX...",
    "....X....",
    "....O....",
    "X...O...X",
    "XXOOKOOXX",
    "X...O...X",
    "....O....",
    "....X....",
    "...XXX...",
];

const START_13: [&str; 13] = [
    "...XXXXXXX...",
    "......X......",
    ".............",
    "X.....O.....X",
    "X.....O.....X",
    "X....OOO....X",
    "XX.OOOKOOO.XX",
    "X....OOO....X",
    "X.....O.....X",
    "X.....O.....X",
    ".............",
    "......X......",
    "...XXXXXXX...",
];

const START_15: [&str; 15] = [
    ".....XXXXX.....",
    "......XXX......",
    ".......X.......",
    ".......X.......",
    ".......O.......",
    "X.....OOO.....X",
    "XX...O.O.O...XX",
    "XXXXOOOKOOOXXXX",
    "XX...O.O.O...XX",
    "X.....OOO.....X",
    ".......O.......",
    ".......X.......",
    ".......X.......",
    "......XXX......",
    ".....XXXXX.....",
];

const START_17: [&str; 17] = [
    "....XXXXXXXXX....",
    "........X........",
    ".................",
    ".................",
    "X.......O.......X",
    "X.......O.......X",
    "X.......O.......X",
    "X......OOO......X",
    "XX..OOOOKOOOO..XX",
    "X......OOO......X",
    "X.......O.......X",
    "X.......O.......X",
    "X.......O.......X",
    ".................",
    ".................",
    "........X........",
    "....XXXXXXXXX....",
];

const START_19: [&str; 19] = [
    "..X..X.......X..X..",
    "...................",
    "X....X.......X....X",
    ".......X.X.X.......",
    "......X.O.O.X......",
    "X.X..X.......X..X.X",
    "....X....O....X....",
    "...X....O.O....X...",
    "....O..O.O.O..O....",
    "...X..O.OKO.O..X...",
    "....O..O.O.O..O....",
    "...X....O.O....X...",
    "....X....O....X....",
    "X.X..X.......X..X.X",
    "......X.O.O.X......",
    ".......X.X.X.......",
    "X....X.......X....X",
    "...................",
    "..X..X.......X..X..",
];

/// The usual start position of a board of `size` files, the last rank first; the 11x11
/// diagram for a size hnefi has none for (every [`Geometry`](super::geometry::Geometry)
/// has one).
pub(crate) fn start_rows(size: u8) -> &'static [&'static str] {
    match size {
        7 => &START_7,
        9 => &START_9,
        13 => &START_13,
        15 => &START_15,
        17 => &START_17,
        19 => &START_19,
        _ => &START_DIAGRAM,
    }
}
