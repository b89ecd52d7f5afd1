//! The JSON payloads of the protocol: `game_time` and `resume_game_json` (the server's
//! `GameTime` and `OpenTaflGame`), decoded with `serde_json` into plain values.

use crate::core::excerpt::excerpt;
use serde_json::Value;

use crate::core::any_square::AnyMove;
use crate::core::geometry::BoardSize;

/// A game id (the server counts them from 0).
pub(crate) type GameId = u64;

/// `= game_time {"id":..,"attacker_ms_left":..,"defender_ms_left":..}`: the clocks right
/// after a move (the mover's increment included).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct GameTime {
    /// The game.
    pub(crate) id: GameId,
    /// The attackers' time left, in milliseconds.
    pub(crate) attacker_ms: i64,
    /// The defenders' time left, in milliseconds.
    pub(crate) defender_ms: i64,
}

fn field<'a>(v: &'a Value, name: &str) -> Result<&'a Value, String> {
    v.get(name).ok_or_else(|| format!("no field '{name}'"))
}

fn int(v: &Value, name: &str) -> Result<i64, String> {
    field(v, name)?
        .as_i64()
        .ok_or_else(|| format!("'{name}' is not an integer"))
}

fn id(v: &Value) -> Result<GameId, String> {
    field(v, "id")?
        .as_u64()
        .ok_or_else(|| "'id' is not a game id".to_string())
}

fn text(v: &Value, name: &str) -> Result<String, String> {
    field(v, name)?
        .as_str()
        .map(str::to_string)
        .ok_or_else(|| format!("'{name}' is not a string"))
}

impl GameTime {
    /// Decodes the payload.
    pub(crate) fn parse(json: &str) -> Result<GameTime, String> {
        let v: Value = serde_json::from_str(json).map_err(|e| e.to_string())?;
        Ok(GameTime {
            id: id(&v)?,
            attacker_ms: int(&v, "attacker_ms_left")?,
            defender_ms: int(&v, "defender_ms_left")?,
        })
    }
}

/// The clocks of a resumed timed game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ResumedClock {
    /// The increment in seconds.
    pub(crate) increment_s: i64,
    /// The attackers' time left at `last_move`, in milliseconds.
    pub(crate) attacker_ms: i64,
    /// The defenders' time left at `last_move`, in milliseconds.
    pub(crate) defender_ms: i64,
    /// When the server last updated the clocks (RFC 3339, UTC), as given.
    pub(crate) last_move: String,
}

/// `= resume_game_json {...}`: a whole game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ResumedGame {
    /// The game.
    pub(crate) id: GameId,
    /// The attackers' account.
    pub(crate) attackers: String,
    /// The defenders' account.
    pub(crate) defenders: String,
    /// The board size (7, 11 or 13).
    pub(crate) dim: u64,
    /// The board, if hnefi has one of `dim` files.
    pub(crate) size: Option<BoardSize>,
    /// The plies so far (moves; resignations end a game and are not listed here).
    pub(crate) plies: usize,
    /// The moves, read on the game's board (empty when hnefi has no board of `dim`
    /// files).
    pub(crate) moves: Vec<AnyMove>,
    /// The clocks; None for an untimed game.
    pub(crate) clock: Option<ResumedClock>,
}

impl ResumedGame {
    /// Decodes the payload. Moves are `FROM-TO` with optional `xSQUARE` captures (the
    /// server writes the files of 13x13 squares in capitals: `A4-C4xD4`).
    pub(crate) fn parse(json: &str) -> Result<ResumedGame, String> {
        let v: Value = serde_json::from_str(json).map_err(|e| e.to_string())?;
        let dim = field(&v, "dim")?
            .as_u64()
            .ok_or_else(|| "'dim' is not a size".to_string())?;
        let record = text(&v, "moves")?;
        let tokens: Vec<&str> = record.split_whitespace().collect();
        let size = BoardSize::ALL
            .into_iter()
            .find(|s| u64::from(s.files()) == dim);
        let mut moves = Vec::with_capacity(tokens.len());
        if let Some(size) = size {
            for token in &tokens {
                let plain = token.split('x').next().unwrap_or("");
                let mv = AnyMove::parse(plain, size)
                    .map_err(|e| format!("move '{}': {e}", excerpt(token)))?;
                moves.push(mv);
            }
        }
        let clock = match (v.get("time_control"), v.get("time_remaining_ms")) {
            (Some(tc), Some(left)) if !tc.is_null() && !left.is_null() => Some(ResumedClock {
                increment_s: int(tc, "increment_length")?,
                attacker_ms: int(left, "attackers")?,
                defender_ms: int(left, "defenders")?,
                last_move: text(left, "last_move")?,
            }),
            _ => None,
        };
        Ok(ResumedGame {
            id: id(&v)?,
            attackers: text(&v, "attackers")?,
            defenders: text(&v, "defenders")?,
            dim,
            size,
            plies: tokens.len(),
            moves,
            clock,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_real_resume() {
        // As hnefatafl-server 6.4.1 sent it in a local game.
        let json = r#"{"id":0,"attackers":"alice","defenders":"bob","dim":11,"start":"/3AAAAA3/5A5/11/A4D4A/A3DDD3A/AA1DDKDD1AA/A3DDD3A/A4D4A/11/5A5/3AAAAA3/","time_control":{"main_time_seconds":60,"increment_length":1},"time_remaining_ms":{"attackers":60499,"defenders":60745,"last_move":"2026-11-23T21:43:18.25Z"},"moves":"h1-h3 e5-e2 g1-g3 f4-c4 g3-e3xe2","rated":false,"messages":[]}"#;
        let g = ResumedGame::parse(json).unwrap();
        assert_eq!((g.id, g.dim, g.plies), (0, 11, 5));
        assert_eq!(g.moves[4].to_string(), "g3-e3");
        let c = g.clock.unwrap();
        assert_eq!(
            (c.increment_s, c.attacker_ms, c.defender_ms),
            (1, 60499, 60745)
        );
        // 13x13: files in capitals, `I` included, captures after `x`.
        let untimed = r#"{"id":2,"attackers":"a","defenders":"b","dim":13,"start":"","time_control":null,"time_remaining_ms":null,"moves":"M1-M3 A4-C4xD4","rated":true,"messages":[]}"#;
        let g = ResumedGame::parse(untimed).unwrap();
        assert_eq!(
            (g.dim, g.size, g.plies, g.clock),
            (13, Some(BoardSize::S13), 2, None)
        );
        let moves: Vec<String> = g.moves.iter().map(AnyMove::to_string).collect();
        assert_eq!(moves, ["m1-m3", "a4-c4"]);
        let small = r#"{"id":3,"attackers":"a","defenders":"b","dim":7,"moves":"d5-e5","time_control":null}"#;
        assert_eq!(ResumedGame::parse(small).unwrap().size, Some(BoardSize::S7));
        // A size hnefi has no board for: read, with no moves, for the bot to decline.
        let odd = r#"{"id":4,"attackers":"a","defenders":"b","dim":8,"moves":"h1-h3"}"#;
        let g = ResumedGame::parse(odd).unwrap();
        assert_eq!((g.size, g.plies, g.moves.len()), (None, 1, 0));
    }

    #[test]
    fn rejects_bad_payloads() {
        for json in [
            "",
            "[]",
            r#"{"id":0}"#,
            r#"{"id":0,"attackers":"a","defenders":"b","dim":11,"moves":"h1-g2"}"#,
            r#"{"id":0,"attackers":"a","defenders":"b","dim":11,"moves":"zz"}"#,
            r#"{"id":0,"attackers":"a","defenders":"b","dim":11,"moves":"l1-l3"}"#,
            r#"{"id":0,"attackers":"a","defenders":"b","dim":7,"moves":"h1-h3"}"#,
            r#"{"id":-1,"attackers":"a","defenders":"b","dim":11,"moves":""}"#,
        ] {
            assert!(ResumedGame::parse(json).is_err(), "{json}");
        }
        assert_eq!(
            GameTime::parse(r#"{"id":1,"attacker_ms_left":5,"defender_ms_left":-3}"#),
            Ok(GameTime {
                id: 1,
                attacker_ms: 5,
                defender_ms: -3
            })
        );
    }
}
