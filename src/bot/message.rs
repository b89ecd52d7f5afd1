//! The lines of the hnefatafl.org bot protocol (server `hnefatafl-copenhagen` 6.4.1):
//! what the server sends, parsed, and what the bot sends, formatted.
//!
//! Lines are newline-delimited text over TCP. Replies to a command start with `=`
//! (success) or `?` (failure) and the command's name; a few messages start with `game`.
//! Replies to `game ... play` carry no game id: the bot matches them to its moves in
//! the order it sent them.

use thiserror::Error;

use crate::core::any_square::{AnyMove, AnySquare};
use crate::core::geometry::BoardSize;
use crate::core::outcome::Outcome;
use crate::core::role::Role;
use crate::time_control::Fischer;

use super::json::{GameId, GameTime, ResumedGame};

/// The protocol version of hnefatafl-copenhagen 6.4.1 (its `VERSION_ID`), the first
/// word of the login line. A server of another release answers `? login wrong_version`.
pub const VERSION_ID: &str = "32d9a140";

/// The server release whose protocol this bot speaks.
pub(crate) const SERVER_RELEASE: &str = "6.4.1";

/// The server's word for a game's result: `attacker_wins`, `defender_wins` (as
/// `game_over` says) or `draw` (as `= draw accept` means).
pub const fn result_word(result: Outcome<()>) -> &'static str {
    match result.winner {
        Some(Role::Attacker) => "attacker_wins",
        Some(Role::Defender) => "defender_wins",
        None => "draw",
    }
}

/// A line from the server that the bot acts on.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum ServerMessage {
    /// `= login` or `= create_account`: logged in.
    LoginOk,
    /// `? login wrong_version`: the server speaks another protocol version.
    WrongVersion,
    /// `? login ...` or `? create_account ...`: refused (the rest of the line).
    LoginRefused(String),
    /// `= new_game ID`: our offer is open.
    Offered(GameId),
    /// `= challenge_requested ID`: someone wants to play our offer.
    ChallengeRequested(GameId),
    /// `= join_game_pending ID`: our request to join is waiting for the offerer.
    JoinPending(GameId),
    /// `? join_game_pending ...`: no such pending game.
    JoinRefused(String),
    /// `game ID generate_move ROLE`: the server asks `ROLE` to move (also sent for every
    /// game at login, whoever is to move).
    GenerateMove {
        /// The game.
        id: GameId,
        /// Who is asked.
        role: Role,
    },
    /// `game ID play ROLE FROM TO` (a move) or `game ID play ROLE resigns` (`mv` None).
    /// The line does not name the board: the squares are read as on the largest one
    /// (files `a` to `o`, in either case, as the server writes 13x13 files in capitals),
    /// and the game's board refuses those off it.
    Played {
        /// The game.
        id: GameId,
        /// Who moved.
        role: Role,
        /// The move, or None for a resignation.
        mv: Option<AnyMove>,
    },
    /// `= game`: our oldest unanswered move was accepted.
    MoveAccepted,
    /// `? game ...`: our oldest unanswered move was refused (the reason).
    MoveRejected(String),
    /// `= game_time {...}`: both clocks after a move.
    GameTime(GameTime),
    /// `= game_over ID attacker_wins|defender_wins`.
    GameOver {
        /// The game.
        id: GameId,
        /// Who won.
        winner: Role,
    },
    /// `= draw accept`: a game was drawn (the server names no game).
    Drawn,
    /// `request_draw ID ROLE`: the opponent offers a draw (the bot never accepts).
    DrawOffered(GameId),
    /// `= resume_game_json {...}`: a whole game.
    Resumed(Box<ResumedGame>),
    /// `= logout`: the server logged us out.
    LoggedOut,
    /// `= tournament_status_0 {...}`: the tournament changed (sent to every client; the
    /// games it makes are not announced to their players otherwise).
    TournamentStatus,
    /// Any other line: lobby updates, chat, versions. Ignored.
    Other,
}

/// A line the bot cannot read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub(crate) enum ParseError {
    /// A field of a known message is missing or malformed.
    #[error("malformed '{0}' message")]
    Malformed(&'static str),
    /// A JSON payload does not decode.
    #[error("bad JSON in '{kind}': {error}")]
    Json {
        /// The message.
        kind: &'static str,
        /// Why.
        error: String,
    },
}

/// The largest board whose squares a server message may name: every square of a smaller
/// one is a square of it. The server plays 7x7, 11x11 and 13x13; 15x15 is the bound the
/// bot has always read by, so that `p1` and beyond stay malformed though hnefi now plays
/// 17x17 and 19x19 elsewhere.
const LARGEST: BoardSize = BoardSize::S15;

fn id_of(word: Option<&str>, kind: &'static str) -> Result<GameId, ParseError> {
    word.and_then(|w| w.parse().ok())
        .ok_or(ParseError::Malformed(kind))
}

fn role_of(word: Option<&str>, kind: &'static str) -> Result<Role, ParseError> {
    match word {
        Some("attacker") => Ok(Role::Attacker),
        Some("defender") => Ok(Role::Defender),
        _ => Err(ParseError::Malformed(kind)),
    }
}

/// The text after the first `n` words of `line` (words separated by single spaces, as
/// the server writes them).
fn rest_after(line: &str, n: usize) -> &str {
    let mut rest = line;
    for _ in 0..n {
        rest = rest.split_once(' ').map_or("", |(_, r)| r);
    }
    rest
}

impl ServerMessage {
    /// Parses one line (without its newline). Unknown lines are [`ServerMessage::Other`];
    /// known ones with bad fields are errors.
    pub(crate) fn parse(line: &str) -> Result<ServerMessage, ParseError> {
        let line = line.trim_end_matches(['\r', '\n']);
        let mut words = line.split(' ');
        let first = words.next().unwrap_or("");
        let second = words.next();
        let third = words.next();
        Ok(match (first, second) {
            ("=", Some("login" | "create_account")) => ServerMessage::LoginOk,
            ("?", Some("login")) if third == Some("wrong_version") => ServerMessage::WrongVersion,
            ("?", Some("login" | "create_account")) => {
                ServerMessage::LoginRefused(rest_after(line, 2).to_string())
            }
            ("=", Some("new_game")) => ServerMessage::Offered(id_of(third, "new_game")?),
            ("=", Some("challenge_requested")) => {
                ServerMessage::ChallengeRequested(id_of(third, "challenge_requested")?)
            }
            ("=", Some("join_game_pending")) => {
                ServerMessage::JoinPending(id_of(third, "join_game_pending")?)
            }
            ("?", Some("join_game_pending")) => {
                ServerMessage::JoinRefused(rest_after(line, 2).to_string())
            }
            ("=", Some("game")) => ServerMessage::MoveAccepted,
            ("?", Some("game")) => ServerMessage::MoveRejected(rest_after(line, 2).to_string()),
            ("=", Some("game_time")) => {
                let json = rest_after(line, 2);
                ServerMessage::GameTime(GameTime::parse(json).map_err(|error| {
                    ParseError::Json {
                        kind: "game_time",
                        error,
                    }
                })?)
            }
            ("=", Some("game_over")) => {
                let id = id_of(third, "game_over")?;
                let winner = match words.next() {
                    Some("attacker_wins") => Role::Attacker,
                    Some("defender_wins") => Role::Defender,
                    _ => return Err(ParseError::Malformed("game_over")),
                };
                ServerMessage::GameOver { id, winner }
            }
            ("=", Some("draw")) if third == Some("accept") => ServerMessage::Drawn,
            ("=", Some("logout")) => ServerMessage::LoggedOut,
            ("=", Some("tournament_status_0")) => ServerMessage::TournamentStatus,
            ("request_draw", _) => ServerMessage::DrawOffered(id_of(second, "request_draw")?),
            ("=", Some("resume_game_json")) => {
                let json = rest_after(line, 2);
                ServerMessage::Resumed(Box::new(ResumedGame::parse(json).map_err(|error| {
                    ParseError::Json {
                        kind: "resume_game_json",
                        error,
                    }
                })?))
            }
            ("game", Some(_)) => {
                let id = id_of(second, "game")?;
                match third {
                    Some("generate_move") => ServerMessage::GenerateMove {
                        id,
                        role: role_of(words.next(), "generate_move")?,
                    },
                    Some("play") => {
                        let role = role_of(words.next(), "play")?;
                        let from = words.next();
                        let mv = match from {
                            Some("resigns") => None,
                            Some(from) => {
                                let to = words.next().ok_or(ParseError::Malformed("play"))?;
                                let (Ok(from), Ok(to)) = (
                                    AnySquare::parse(from, LARGEST),
                                    AnySquare::parse(to, LARGEST),
                                ) else {
                                    return Err(ParseError::Malformed("play"));
                                };
                                Some(AnyMove::new(from, to).ok_or(ParseError::Malformed("play"))?)
                            }
                            None => return Err(ParseError::Malformed("play")),
                        };
                        ServerMessage::Played { id, role, mv }
                    }
                    _ => ServerMessage::Other,
                }
            }
            _ => ServerMessage::Other,
        })
    }
}

/// How the log names the clock of an offer: `60000 ms + 1 s` (base and increment, whole
/// seconds as the server keeps them), or `untimed` for `None`.
pub(crate) fn clock_text(time: Option<Fischer>) -> String {
    match time {
        None => "untimed".to_string(),
        Some(tc) => format!("{} ms + {} s", tc.base.as_millis(), tc.increment.as_secs()),
    }
}

/// A line the bot sends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ClientMessage {
    /// `VERSION_ID login NAME PASSWORD` or `VERSION_ID create_account NAME PASSWORD`.
    Login {
        /// The protocol version sent.
        version: String,
        /// Create the account instead of logging in.
        create: bool,
        /// The account.
        username: String,
        /// Its password (never logged).
        password: String,
    },
    /// `software_id hnefi-VERSION`.
    SoftwareId,
    /// `new_game {json}`: offer a game.
    NewGame {
        /// Our side.
        role: Role,
        /// The board.
        size: BoardSize,
        /// Rated or not.
        rated: bool,
        /// The clock, `None` for an untimed game; the server adds whole seconds per move
        /// (the increment's fraction is not sent).
        time: Option<Fischer>,
    },
    /// `join_game ID`: accept a challenge to our offer.
    JoinGame(GameId),
    /// `decline_game ID`: refuse a challenge.
    DeclineGame(GameId),
    /// `join_game_pending ID`: ask to join someone's offer.
    JoinGamePending(GameId),
    /// `resume_game_json ID`: ask for the whole game (and receive its moves from now on).
    ResumeGameJson(GameId),
    /// `game ID play ROLE FROM TO`.
    Play {
        /// The game.
        id: GameId,
        /// Our side.
        role: Role,
        /// The move.
        mv: AnyMove,
    },
    /// `game ID play ROLE resigns _`.
    Resign {
        /// The game.
        id: GameId,
        /// Our side.
        role: Role,
    },
    /// `leave_game ID`: withdraw our offer that no one has joined.
    LeaveGame(GameId),
    /// `ping`: the server answers `= ping` (the bot's heartbeat).
    Ping,
    /// `logout`.
    Logout,
    /// `join_tournament`: enter the server's next tournament.
    JoinTournament,
    /// `resume_games`: the server answers `game ID generate_move ROLE` for each of our
    /// games in progress, whoever is to move.
    ResumeGames,
}

impl ClientMessage {
    /// The line as sent (without its newline).
    pub(crate) fn line(&self) -> String {
        match self {
            ClientMessage::Login {
                version,
                create,
                username,
                password,
            } => format!(
                "{version} {} {username} {password}",
                if *create { "create_account" } else { "login" }
            ),
            other => other.redacted(),
        }
    }

    /// The line as logged: the password replaced by asterisks.
    pub(crate) fn redacted(&self) -> String {
        match self {
            ClientMessage::Login {
                version,
                create,
                username,
                ..
            } => format!(
                "{version} {} {username} ********",
                if *create { "create_account" } else { "login" }
            ),
            ClientMessage::SoftwareId => {
                format!("software_id hnefi-{}", env!("CARGO_PKG_VERSION"))
            }
            ClientMessage::NewGame {
                role,
                size,
                rated,
                time,
            } => {
                let role = match role {
                    Role::Attacker => "Attacker",
                    Role::Defender => "Defender",
                };
                let time = match time {
                    None => "\"UnTimed\"".to_string(),
                    Some(tc) => format!(
                        "{{\"Timed\":{{\"add_seconds\":{},\"milliseconds_left\":{}}}}}",
                        tc.increment.as_secs(),
                        tc.base.as_millis()
                    ),
                };
                format!(
                    "new_game {{\"role\":\"{role}\",\"rated\":{rated},\"time_settings\":{time},\"board_size\":{size}}}"
                )
            }
            ClientMessage::JoinGame(id) => format!("join_game {id}"),
            ClientMessage::DeclineGame(id) => format!("decline_game {id}"),
            ClientMessage::JoinGamePending(id) => format!("join_game_pending {id}"),
            ClientMessage::ResumeGameJson(id) => format!("resume_game_json {id}"),
            ClientMessage::Play { id, role, mv } => {
                format!("game {id} play {role} {} {}", mv.from, mv.to)
            }
            ClientMessage::Resign { id, role } => format!("game {id} play {role} resigns _"),
            ClientMessage::LeaveGame(id) => format!("leave_game {id}"),
            ClientMessage::Ping => "ping".to_string(),
            ClientMessage::Logout => "logout".to_string(),
            ClientMessage::JoinTournament => "join_tournament".to_string(),
            ClientMessage::ResumeGames => "resume_games".to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn parses_every_message() {
        let p = |s: &str| ServerMessage::parse(s).unwrap();
        assert_eq!(p("= login"), ServerMessage::LoginOk);
        assert_eq!(p("? login wrong_version"), ServerMessage::WrongVersion);
        assert_eq!(p("= new_game 7"), ServerMessage::Offered(7));
        assert_eq!(
            p("= challenge_requested 7"),
            ServerMessage::ChallengeRequested(7)
        );
        assert_eq!(
            p("game 3 generate_move defender"),
            ServerMessage::GenerateMove {
                id: 3,
                role: Role::Defender
            }
        );
        assert_eq!(
            p("game 3 play attacker h1 h3"),
            ServerMessage::Played {
                id: 3,
                role: Role::Attacker,
                mv: Some(AnyMove::parse("h1-h3", BoardSize::S11).unwrap())
            }
        );
        // 13x13 squares come with capital files; the move is the same in lower case.
        assert_eq!(
            p("game 3 play attacker M13 I13"),
            ServerMessage::Played {
                id: 3,
                role: Role::Attacker,
                mv: Some(AnyMove::parse("m13-i13", BoardSize::S13).unwrap())
            }
        );
        assert_eq!(
            p("game 3 play defender resigns "),
            ServerMessage::Played {
                id: 3,
                role: Role::Defender,
                mv: None
            }
        );
        assert_eq!(
            p("= game_over 3 defender_wins"),
            ServerMessage::GameOver {
                id: 3,
                winner: Role::Defender
            }
        );
        assert_eq!(p("= game"), ServerMessage::MoveAccepted);
        assert_eq!(
            p("? game play: it isn't your turn"),
            ServerMessage::MoveRejected("play: it isn't your turn".into())
        );
        assert_eq!(p("= draw accept"), ServerMessage::Drawn);
        assert_eq!(p("= logout"), ServerMessage::LoggedOut);
        assert_eq!(
            p("= tournament_status_0 {\"players\":[]}"),
            ServerMessage::TournamentStatus
        );
        assert_eq!(p("request_draw 4 attacker"), ServerMessage::DrawOffered(4));
        assert_eq!(p("= games_updated {\"created\":[]}"), ServerMessage::Other);
        assert_eq!(p(""), ServerMessage::Other);
    }

    #[test]
    fn bad_fields_are_errors() {
        for line in [
            "game x generate_move attacker",
            "game 1 generate_move king",
            "game 1 play attacker h1 z9",
            "game 1 play attacker p1 p3",
            "game 1 play attacker h1 g2",
            "game 1 play attacker h1",
            "= game_over 1 nobody_wins",
            "= new_game -1",
            "= game_time {\"id\":1}",
            "= resume_game_json {",
        ] {
            assert!(ServerMessage::parse(line).is_err(), "{line}");
        }
    }

    #[test]
    fn the_password_is_only_in_the_line() {
        let login = ClientMessage::Login {
            version: VERSION_ID.into(),
            create: false,
            username: "hnefi".into(),
            password: "s3cret".into(),
        };
        assert_eq!(login.line(), "32d9a140 login hnefi s3cret");
        assert!(!login.redacted().contains("s3cret"));
    }

    #[test]
    fn service_lines() {
        for (m, line) in [
            (ClientMessage::LeaveGame(3), "leave_game 3"),
            (ClientMessage::Ping, "ping"),
            (ClientMessage::Logout, "logout"),
            (ClientMessage::JoinTournament, "join_tournament"),
            (ClientMessage::ResumeGames, "resume_games"),
        ] {
            assert_eq!(m.line(), line);
        }
    }

    #[test]
    fn offers_are_json() {
        let m = ClientMessage::NewGame {
            role: Role::Attacker,
            size: BoardSize::S11,
            rated: false,
            time: Some(Fischer {
                base: Duration::from_secs(60),
                increment: Duration::from_secs(1),
            }),
        };
        assert_eq!(
            m.line(),
            "new_game {\"role\":\"Attacker\",\"rated\":false,\"time_settings\":{\"Timed\":{\"add_seconds\":1,\"milliseconds_left\":60000}},\"board_size\":11}"
        );
        let m = ClientMessage::NewGame {
            role: Role::Defender,
            size: BoardSize::S13,
            rated: true,
            time: None,
        };
        assert_eq!(
            m.line(),
            "new_game {\"role\":\"Defender\",\"rated\":true,\"time_settings\":\"UnTimed\",\"board_size\":13}"
        );
        let play = ClientMessage::Play {
            id: 4,
            role: Role::Defender,
            mv: AnyMove::parse("m7-m2", BoardSize::S13).unwrap(),
        };
        assert_eq!(play.line(), "game 4 play defender m7 m2");
    }
}
