//! Which shield walls a rule set has, as data of the rule set (docs/RULES.md sections 4
//! and 17.9); the captures themselves are [`capture`](super::capture)'s and
//! [`opentafl_wall`](super::opentafl_wall)'s.

/// Which shield walls capture. One value rather than a flag for each kind, since a rule
/// set has at most one kind, and a move tests it once.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum ShieldWalls {
    /// No shield walls.
    Off,
    /// hnefi's Copenhagen shield walls: a move onto the edge that closes a row with its
    /// front held captures the row (section 4).
    Copenhagen,
    /// OpenTafl's relaxed shield walls (`swf:n`), as its scan finds them: any move of a
    /// side takes the walls it holds (section 17.9).
    OpenTafl,
}
