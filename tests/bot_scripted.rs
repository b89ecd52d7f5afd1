//! `hnefi bot` against a scripted server in this process (loopback only): every message
//! type, a refused move, a dropped connection, garbage, a wrong version, games on the
//! server's 7x7 and 13x13 boards, and a board size hnefi does not play there; the faults a
//! service meets (a restarted server, a silent one, a flood of unreadable lines, a full
//! disk for the log) and a stop request (SIGTERM).

use crate::common;

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use hnefi::bot::clock::Caps;
use hnefi::bot::log::Log;
use hnefi::bot::message::{VERSION_ID, result_word};
use hnefi::bot::shutdown::Shutdown;
use hnefi::bot::{BotError, Config, Summary, run, run_until};
use hnefi::core::any_game::AnyGame;
use hnefi::core::any_square::AnyMove;
use hnefi::core::game::Game;
use hnefi::core::geometry::BoardSize;
use hnefi::core::moves::Move;
use hnefi::core::preset::RulePreset;
use hnefi::core::role::Role;
use hnefi::time_control::Fischer;

/// A log the test can read.
#[derive(Clone, Default)]
struct Shared(Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .map_err(|_| std::io::Error::other("poisoned"))?
            .extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Shared {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }
}

fn config(port: u16) -> Config {
    Config {
        host: "127.0.0.1".into(),
        port,
        username: "alice".into(),
        password: "s3cret".into(),
        create_account: true,
        version_id: VERSION_ID.into(),
        role: Role::Attacker,
        board_sizes: vec![BoardSize::S11],
        accept_games: 1,
        join_game: None,
        rated: false,
        times: vec![Some(Fischer {
            base: Duration::from_secs(60),
            increment: Duration::from_secs(1),
        })],
        threads: 1,
        hash_mb: 1,
        caps: Caps {
            max_move: Duration::from_millis(200),
            nodes: Some(2_000),
            depth: None,
        },
        max_games: 1,
        max_reconnects: 3,
        join_tournament: false,
        // Far beyond any pause of these scripts: only the heartbeat's own test pings.
        heartbeat: Duration::from_secs(600),
        stop_grace: Duration::from_secs(60),
    }
}

/// One connection of the scripted server.
struct Peer {
    out: TcpStream,
    lines: BufReader<TcpStream>,
}

impl Peer {
    fn accept(listener: &TcpListener) -> Peer {
        let (s, _) = listener.accept().unwrap();
        s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        Peer {
            out: s.try_clone().unwrap(),
            lines: BufReader::new(s),
        }
    }

    /// The next line from the bot (the socket's read timeout is the deadline), its
    /// heartbeat's `ping`s answered and skipped.
    fn recv(&mut self) -> String {
        loop {
            let line = self.recv_raw();
            if line != "ping" {
                return line;
            }
            self.say("= ping");
        }
    }

    /// The next line from the bot, pings included.
    fn recv_raw(&mut self) -> String {
        let mut l = String::new();
        if let Err(e) = self.lines.read_line(&mut l) {
            panic!("no line from the bot within the socket's deadline ({e}); read so far: {l:?}");
        }
        assert!(l.ends_with('\n'), "the bot closed the connection");
        l.trim_end().to_string()
    }

    fn send(&mut self, line: &[u8]) {
        self.out.write_all(line).unwrap();
        self.out.write_all(b"\n").unwrap();
    }

    fn say(&mut self, line: &str) {
        self.send(line.as_bytes());
    }
}

fn start(
    config: Config,
) -> (
    u16,
    TcpListener,
    thread::JoinHandle<Result<Summary, BotError>>,
    Shared,
) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let log = Shared::default();
    let out = log.clone();
    let config = Config { port, ..config };
    let bot = thread::spawn(move || run(&config, &Log::new(true, Box::new(out))));
    (port, listener, bot, log)
}

fn resume(id: u64, moves: &[Move], dim: u32) -> String {
    let moves: Vec<String> = moves.iter().map(Move::to_string).collect();
    resume_as(id, &moves.join(" "), dim, "alice", "bob")
}

/// `resume_game_json` of game `id` on a board of `dim` files, with the moves field and
/// the two accounts.
fn resume_as(id: u64, moves: &str, dim: u32, attackers: &str, defenders: &str) -> String {
    format!(
        "= resume_game_json {{\"id\":{id},\"attackers\":\"{attackers}\",\"defenders\":\"{defenders}\",\"dim\":{dim},\"start\":\"\",\"time_control\":{{\"main_time_seconds\":60,\"increment_length\":1}},\"time_remaining_ms\":{{\"attackers\":60000,\"defenders\":60000,\"last_move\":\"2026-01-01T00:00:00Z\"}},\"moves\":\"{moves}\",\"rated\":false,\"messages\":[]}}"
    )
}

/// Reads `game ID play ROLE FROM TO` on the board of `game` and checks it is legal there.
fn legal_move_on(line: &str, id: u64, role: &str, game: &AnyGame) -> AnyMove {
    let prefix = format!("game {id} play {role} ");
    let rest = line
        .strip_prefix(&prefix)
        .unwrap_or_else(|| panic!("expected a move, got '{line}'"));
    let mv = AnyMove::parse(&rest.replacen(' ', "-", 1), game.size()).unwrap();
    assert!(game.check(mv).is_ok(), "illegal move {mv}");
    mv
}

/// The server's game on a board of `size`, at its start.
fn server_start(size: BoardSize) -> AnyGame {
    let variant = RulePreset::HnefataflOrg.variant(size).unwrap();
    AnyGame::start(&variant, variant.first(), variant.rules()).unwrap()
}

/// Reads `game ID play ROLE FROM TO` and checks it is legal in `game`.
fn legal_move(line: &str, id: u64, role: &str, game: &Game) -> Move {
    let prefix = format!("game {id} play {role} ");
    let rest = line
        .strip_prefix(&prefix)
        .unwrap_or_else(|| panic!("expected a move, got '{line}'"));
    let mv: Move = rest.replacen(' ', "-", 1).parse().unwrap();
    assert!(game.check(mv).is_ok(), "illegal move {mv}");
    mv
}

#[test]
fn plays_through_refusals_drops_and_garbage() {
    let (_, listener, bot, log) = start(config(0));
    let mut p = Peer::accept(&listener);
    assert_eq!(
        p.recv(),
        format!("{VERSION_ID} create_account alice s3cret")
    );
    p.say("= login");
    assert!(p.recv().starts_with("software_id hnefi-"));
    assert_eq!(
        p.recv(),
        "new_game {\"role\":\"Attacker\",\"rated\":false,\"time_settings\":{\"Timed\":{\"add_seconds\":1,\"milliseconds_left\":60000}},\"board_size\":11}"
    );
    // Garbage of every kind: none of it may stop the bot.
    p.send(b"\xff\xfe garbage \x00");
    p.say("game x generate_move attacker");
    p.say("= game_over 5 nobody_wins");
    p.say("= resume_game_json {broken");
    p.say(&format!("= games_updated {}", "x".repeat(200_000)));
    p.say("version 6.4.1");
    p.say("");
    p.say("= new_game 5");
    p.say("= challenge_requested 6");
    assert_eq!(p.recv(), "decline_game 6");
    p.say("= challenge_requested 5");
    assert_eq!(p.recv(), "join_game 5");
    p.say("= join_game alice bob unrated fischer 60000 1 11");
    p.say("game 5 generate_move attacker");
    assert_eq!(p.recv(), "resume_game_json 5");
    p.say(&resume(5, &[], 11));
    let mut game = Game::new(RulePreset::HnefataflOrg.rules());
    let first = legal_move(&p.recv(), 5, "attacker", &game);
    // Refused: the bot re-reads the game and sends another move.
    p.say("? game play: you already reached that position");
    assert_eq!(p.recv(), "resume_game_json 5");
    p.say(&resume(5, &[], 11));
    let second = legal_move(&p.recv(), 5, "attacker", &game);
    assert_ne!(first, second);
    p.say("= game");
    game.play(second).unwrap();
    p.say("= game_time {\"id\":5,\"attacker_ms_left\":60800,\"defender_ms_left\":60000}");
    let reply = game.legal_moves().as_slice()[0];
    game.play(reply).unwrap();
    p.say(&format!("game 5 play defender {} {}", reply.from, reply.to));
    p.say("game 5 generate_move attacker");
    p.say("= game_time {\"id\":5,\"attacker_ms_left\":60800,\"defender_ms_left\":60900}");
    // In step: the move comes without another resume.
    let third = legal_move(&p.recv(), 5, "attacker", &game);
    game.play(third).unwrap();
    p.say("request_draw 5 defender");
    // The connection drops; the bot logs in again (no new account) and resumes game 5.
    drop(p);
    let mut p = Peer::accept(&listener);
    assert_eq!(p.recv(), format!("{VERSION_ID} login alice s3cret"));
    p.say("= login");
    assert!(p.recv().starts_with("software_id"));
    assert_eq!(p.recv(), "resume_game_json 5");
    let reply = game.legal_moves().as_slice()[0];
    game.play(reply).unwrap();
    let moves: Vec<Move> = game.plies().iter().filter_map(|p| p.mv()).collect();
    p.say("game 5 generate_move attacker");
    p.say(&resume(5, &moves, 11));
    legal_move(&p.recv(), 5, "attacker", &game);
    p.say("= game");
    p.say("= draw accept");
    let summary = bot.join().unwrap().unwrap();
    assert_eq!(summary.finished.len(), 1);
    assert_eq!(summary.finished[0].result.winner, None);
    assert_eq!(summary.finished[0].record.split(' ').count(), 5);
    assert_eq!(summary.refused_moves, 1);
    assert_eq!(summary.reconnects, 1);
    assert!(summary.bad_lines >= 3, "{summary:?}");
    let text = log.text();
    assert!(!text.contains("s3cret"), "the password was logged");
    assert!(text.contains("> 32d9a140 create_account alice ********"));
    assert!(text.contains("the server refused"));
    // Each move's line has the mover's chances after the score.
    let moves: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("game 5: ply "))
        .collect();
    assert!(!moves.is_empty(), "{text}");
    for line in moves {
        assert_eq!(chances_of(line).iter().sum::<u32>(), 1000, "{line}");
    }
}

/// The three numbers after `wdl` in a move's log line (`... score 40 wdl 610 170 220
/// nodes ...`), which must come right after the score.
fn chances_of(line: &str) -> Vec<u32> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words
        .iter()
        .position(|w| *w == "wdl")
        .unwrap_or_else(|| panic!("no wdl in {line}"));
    assert_eq!(words.get(at - 2), Some(&"score"), "{line}");
    assert_eq!(words.get(at + 4), Some(&"nodes"), "{line}");
    words[at + 1..at + 4]
        .iter()
        .map(|w| w.parse().expect("a number"))
        .collect()
}

#[test]
fn wrong_version_names_both_sides() {
    let (_, listener, bot, _) = start(Config {
        version_id: "00000000".into(),
        ..config(0)
    });
    let mut p = Peer::accept(&listener);
    assert!(p.recv().starts_with("00000000 create_account alice"));
    p.say("? login wrong_version");
    let err = bot.join().unwrap().unwrap_err().to_string();
    assert!(
        err.contains("00000000") && err.contains(VERSION_ID) && err.contains("6.4.1"),
        "{err}"
    );
}

#[test]
fn refused_login_is_an_error() {
    let (_, listener, bot, log) = start(config(0));
    let mut p = Peer::accept(&listener);
    p.recv();
    p.say("? create_account multiple_possible_errors play: the account exists");
    let err = bot.join().unwrap().unwrap_err().to_string();
    assert!(err.contains("refused the login"), "{err}");
    assert!(!log.text().contains("s3cret"));
}

/// On one connection: a game on a board the server never offers (9x9, as a game the
/// server made for the bot could be) is resigned with the reason in the log; a 13x13 game
/// (squares in capitals from the server) and a 7x7 game (the defenders first) are played.
#[test]
fn plays_the_servers_boards_and_declines_others() {
    let (_, listener, bot, log) = start(Config {
        accept_games: 0,
        join_game: Some(9),
        create_account: false,
        max_games: 3,
        ..config(0)
    });
    let mut p = Peer::accept(&listener);
    assert_eq!(p.recv(), format!("{VERSION_ID} login alice s3cret"));
    p.say("= login");
    p.recv();
    assert_eq!(p.recv(), "join_game_pending 9");
    // Not offered yet: the bot tries again.
    p.say("? join_game_pending the id doesn't refer to a pending game unknown error");
    assert_eq!(p.recv(), "join_game_pending 9");
    p.say("= join_game_pending 9");

    p.say("game 8 generate_move attacker");
    assert_eq!(p.recv(), "resume_game_json 8");
    p.say(&resume(8, &[], 9));
    assert_eq!(p.recv(), "game 8 play attacker resigns _");
    p.say("= game_over 8 defender_wins");

    let mut game = server_start(BoardSize::S13);
    p.say("game 9 generate_move attacker");
    assert_eq!(p.recv(), "resume_game_json 9");
    // The server's record of a game with one move each (in capitals, as it writes them).
    let first = game.legal_moves()[0];
    game.play(first).unwrap();
    let reply = game.legal_moves()[0];
    game.play(reply).unwrap();
    let moves = format!("{first} {reply}").to_uppercase();
    p.say(&resume_as(9, &moves, 13, "alice", "bob"));
    let mv = legal_move_on(&p.recv(), 9, "attacker", &game);
    p.say("= game");
    game.play(mv).unwrap();
    let reply = *game.legal_moves().last().unwrap();
    game.play(reply).unwrap();
    let (from, to) = (reply.from.to_string(), reply.to.to_string());
    p.say(&format!(
        "game 9 play defender {} {}",
        from.to_uppercase(),
        to.to_uppercase()
    ));
    p.say("game 9 generate_move attacker");
    // In step with the server's capitals: the move comes without another resume.
    legal_move_on(&p.recv(), 9, "attacker", &game);
    p.say("= game");
    p.say("= game_over 9 attacker_wins");

    let game = server_start(BoardSize::S7);
    assert_eq!(game.to_move(), Role::Defender);
    p.say("game 10 generate_move defender");
    assert_eq!(p.recv(), "resume_game_json 10");
    p.say(&resume_as(10, "", 7, "bob", "alice"));
    legal_move_on(&p.recv(), 10, "defender", &game);
    p.say("= game");
    p.say("= game_over 10 defender_wins");

    let summary = bot.join().unwrap().unwrap();
    let results: Vec<(u64, &str)> = summary
        .finished
        .iter()
        .map(|f| (f.id, result_word(f.result)))
        .collect();
    assert_eq!(
        results,
        [
            (8, "defender_wins"),
            (9, "attacker_wins"),
            (10, "defender_wins")
        ]
    );
    assert_eq!((summary.refused_moves, summary.reconnects), (0, 0));
    assert_eq!(summary.finished[1].record.split(' ').count(), 5);
    let text = log.text();
    assert!(
        text.contains("game 8 is played on 9x9, which hnefi cannot play under the server's rules (the hnefatafl-org rules have no 9x9 game"),
        "{text}"
    );
}

#[test]
fn plays_two_games_at_once() {
    let (_, listener, bot, log) = start(Config {
        accept_games: 2,
        max_games: 2,
        create_account: false,
        ..config(0)
    });
    let mut p = Peer::accept(&listener);
    p.recv();
    p.say("= login");
    p.recv();
    assert!(p.recv().starts_with("new_game "));
    assert!(p.recv().starts_with("new_game "));
    p.say("= new_game 1");
    p.say("= new_game 2");
    for id in [1, 2] {
        p.say(&format!("= challenge_requested {id}"));
        assert_eq!(p.recv(), format!("join_game {id}"));
    }
    p.say("game 1 generate_move attacker");
    p.say("game 2 generate_move attacker");
    assert_eq!(p.recv(), "resume_game_json 1");
    assert_eq!(p.recv(), "resume_game_json 2");
    p.say(&resume(1, &[], 11));
    p.say(&resume(2, &[], 11));
    let game = Game::new(RulePreset::HnefataflOrg.rules());
    let mut seen = Vec::new();
    for _ in 0..2 {
        let line = p.recv();
        let id: u64 = line.split(' ').nth(1).unwrap().parse().unwrap();
        legal_move(&line, id, "attacker", &game);
        seen.push(id);
    }
    seen.sort_unstable();
    assert_eq!(seen, [1, 2]);
    p.say("= game");
    p.say("= game");
    p.say("= game_over 2 attacker_wins");
    // No new offer: with --max-games 2, the two open games are all there is to play.
    p.say("= game_over 1 defender_wins");
    let summary = bot.join().unwrap().unwrap();
    let results: Vec<(u64, &str)> = summary
        .finished
        .iter()
        .map(|f| (f.id, result_word(f.result)))
        .collect();
    assert_eq!(results, [(2, "attacker_wins"), (1, "defender_wins")]);
    assert_eq!(summary.refused_moves, 0);
    assert!(!log.text().contains("s3cret"));
}

/// The login line `hnefi bot` sends to a listener of the test, with `args` and `env`
/// (the process is killed after it); its stderr so far.
fn login_line(args: &[&str], env: Option<(&str, &str)>) -> (String, String) {
    use std::process::{Command, Stdio};
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port().to_string();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_hnefi"));
    cmd.args([
        "bot",
        "--host",
        "127.0.0.1",
        "--port",
        &port,
        "--username",
        "alice",
    ])
    .args(["--accept-games", "1", "--debug"])
    .args(args)
    .env_remove("HNEFI_BOT_PASSWORD")
    .stdout(Stdio::null())
    .stderr(Stdio::piped());
    if let Some((k, v)) = env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().unwrap();
    let mut peer = Peer::accept(&listener);
    let line = peer.recv();
    peer.say("= login");
    thread::sleep(Duration::from_millis(300));
    let _ = child.kill();
    let out = common::finish_output(&mut child, "hnefi bot after its kill");
    (line, String::from_utf8_lossy(&out.stderr).into_owned())
}

/// The password comes from a file only its owner may open, or from the environment, as
/// well as from `--password`; it reaches the login line and never the log; `--help` says
/// what is needed and shows a first run.
#[cfg(unix)]
#[test]
fn the_password_comes_from_a_private_file_or_the_environment() {
    use std::os::unix::fs::PermissionsExt;
    use std::process::Command;
    let path = std::env::temp_dir().join(format!("hnefi-bot-pw-{}", std::process::id()));
    std::fs::write(&path, "file-s3cret\n").unwrap();
    let file = path.to_str().unwrap();

    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    let out = common::output_of(
        Command::new(env!("CARGO_BIN_EXE_hnefi"))
            .args(["bot", "--username", "alice", "--accept-games", "1"])
            .args(["--password-file", file]),
        "hnefi bot refusing an open password file",
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("is open to other users (mode 0644)"), "{err}");
    assert!(!err.contains("file-s3cret"), "{err}");

    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
    let (line, log) = login_line(&["--password-file", file], None);
    assert!(line.ends_with(" login alice file-s3cret"), "{line}");
    assert!(!log.contains("s3cret"), "{log}");
    assert!(!log.contains("warning: --password"), "{log}");
    let _ = std::fs::remove_file(&path);

    let (line, log) = login_line(&[], Some(("HNEFI_BOT_PASSWORD", "env-s3cret")));
    assert!(line.ends_with(" login alice env-s3cret"), "{line}");
    assert!(!log.contains("s3cret"), "{log}");

    let (line, log) = login_line(&["--password", "flag-s3cret"], None);
    assert!(line.ends_with(" login alice flag-s3cret"), "{line}");
    assert!(!log.contains("s3cret"), "{log}");
    assert!(log.contains("warning: --password is visible"), "{log}");

    let help = common::output_of(
        Command::new(env!("CARGO_BIN_EXE_hnefi")).args(["bot", "--help"]),
        "hnefi bot --help",
    );
    let help = String::from_utf8_lossy(&help.stdout);
    for needed in [
        "--accept-games N (keep N offers of its own",
        "or --join-game ID",
        "HNEFI_BOT_PASSWORD",
        "--password-file ~/.hnefi-bot-password --create-account",
    ] {
        assert!(help.contains(needed), "{needed}: {help}");
    }
}

/// The bot and the scripted server, with a stop request the test can make.
fn start_stoppable(
    config: Config,
) -> (
    TcpListener,
    thread::JoinHandle<Result<Summary, BotError>>,
    Shared,
    Shutdown,
) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let log = Shared::default();
    let out = log.clone();
    let config = Config { port, ..config };
    let shutdown = Shutdown::new();
    let stop = shutdown.clone();
    let bot = thread::spawn(move || run_until(&config, &Log::new(true, Box::new(out)), &stop));
    (listener, bot, log, shutdown)
}

/// Logs the bot in on a new connection of `listener`; returns the connection after the
/// lines that follow every login (`software_id`, then `rest` more).
fn logged_in(listener: &TcpListener, rest: usize) -> (Peer, Vec<String>) {
    let mut p = Peer::accept(listener);
    assert!(p.recv().contains(" alice s3cret"));
    p.say("= login");
    assert!(p.recv().starts_with("software_id hnefi-"));
    let lines = (0..rest).map(|_| p.recv()).collect();
    (p, lines)
}

/// The lines of the connection up to the first one containing `needle`.
fn recv_until(p: &mut Peer, needle: &str) -> Vec<String> {
    let mut seen = Vec::new();
    loop {
        let line = p.recv();
        let hit = line.contains(needle);
        seen.push(line);
        if hit {
            return seen;
        }
    }
}

/// A server that restarted between two logins has lost the bot's open offer: after
/// reconnecting, the bot withdraws it (in case it survived) and offers again; a game the
/// server does not resume (a restarted server answers nothing for a game it lost) is
/// dropped after the heartbeat's wait, and its offer made again too.
#[test]
fn offers_again_and_drops_lost_games_after_a_server_restart() {
    let (_, listener, bot, log) = start(Config {
        heartbeat: Duration::from_secs(1),
        max_games: 1,
        ..config(0)
    });
    let (mut p, lines) = logged_in(&listener, 1);
    assert!(lines[0].starts_with("new_game "), "{lines:?}");
    p.say("= new_game 0");
    // The server "restarts": the connection goes, the offer with it.
    drop(p);
    let (mut p, lines) = logged_in(&listener, 0);
    assert!(lines.is_empty());
    let after = recv_until(&mut p, "new_game ");
    assert!(after.contains(&"leave_game 0".to_string()), "{after:?}");
    p.say("= new_game 0");
    p.say("= challenge_requested 0");
    assert_eq!(p.recv(), "join_game 0");
    p.say("game 0 generate_move attacker");
    assert_eq!(p.recv(), "resume_game_json 0");
    p.say(&resume(0, &[], 11));
    legal_move(
        &p.recv(),
        0,
        "attacker",
        &Game::new(RulePreset::HnefataflOrg.rules()),
    );
    // Restarted again, now without the game: its resume gets no answer, but pings do.
    drop(p);
    let (mut p, _) = logged_in(&listener, 0);
    assert_eq!(p.recv(), "resume_game_json 0");
    // The pings are answered (by recv): the server speaks, but not of game 0.
    let after = p.recv();
    assert!(after.starts_with("new_game "), "{after}");
    p.say("= new_game 1");
    p.say("= challenge_requested 1");
    assert_eq!(p.recv(), "join_game 1");
    p.say("= game_over 1 defender_wins");
    let summary = bot.join().unwrap().unwrap();
    assert_eq!(summary.lost_games, 1, "{summary:?}");
    assert_eq!(summary.reconnects, 2);
    let text = log.text();
    assert!(
        text.contains("game 0: the server did not resume it"),
        "{text}"
    );
}

/// A server that stops answering without closing the connection: the bot pings it, and
/// after three heartbeats of silence reconnects.
#[test]
fn a_silent_server_is_pinged_then_left() {
    let (_, listener, bot, log) = start(Config {
        heartbeat: Duration::from_secs(1),
        ..config(0)
    });
    let (mut p, lines) = logged_in(&listener, 1);
    assert!(lines[0].starts_with("new_game "));
    // Silent from here: the pings go unanswered.
    assert_eq!(p.recv_raw(), "ping");
    let (mut q, _) = logged_in(&listener, 0);
    assert!(recv_until(&mut q, "new_game ").len() <= 2);
    q.say("= new_game 4");
    q.say("= challenge_requested 4");
    assert_eq!(q.recv(), "join_game 4");
    q.say("= game_over 4 attacker_wins");
    let summary = bot.join().unwrap().unwrap();
    assert_eq!(summary.reconnects, 1);
    assert!(
        log.text().contains("it stopped answering"),
        "{}",
        log.text()
    );
    drop(p);
}

/// A flood of unreadable lines is counted and skipped, logged a few times only, and the
/// bot plays on.
#[test]
fn a_flood_of_unreadable_lines_is_skipped() {
    let (_, listener, bot, log) = start(config(0));
    let (mut p, lines) = logged_in(&listener, 1);
    assert!(lines[0].starts_with("new_game "));
    let flood = "game x generate_move attacker\n".repeat(50_000);
    p.send(flood.trim_end().as_bytes());
    p.say("= new_game 2");
    p.say("= challenge_requested 2");
    assert_eq!(p.recv(), "join_game 2");
    p.say("= game_over 2 attacker_wins");
    let summary = bot.join().unwrap().unwrap();
    assert_eq!(summary.bad_lines, 50_000);
    let logged = log
        .text()
        .lines()
        .filter(|l| l.contains("ignored a line the bot cannot read"))
        .count();
    assert_eq!(logged, 20 + 50, "{logged}");
}

/// A stop request: the open offer is withdrawn, a challenge declined; a second request
/// resigns the game in progress at the bot's turn; then the bot logs out and returns.
#[test]
fn a_stop_request_withdraws_resigns_and_logs_out() {
    let (listener, bot, log, shutdown) = start_stoppable(Config {
        accept_games: 2,
        max_games: 0,
        ..config(0)
    });
    let (mut p, lines) = logged_in(&listener, 2);
    assert!(
        lines.iter().all(|l| l.starts_with("new_game ")),
        "{lines:?}"
    );
    p.say("= new_game 1");
    p.say("= new_game 2");
    p.say("= challenge_requested 1");
    assert_eq!(p.recv(), "join_game 1");
    p.say("game 1 generate_move attacker");
    assert_eq!(p.recv(), "resume_game_json 1");
    p.say(&resume(1, &[], 11));
    let mut game = Game::new(RulePreset::HnefataflOrg.rules());
    let mv = legal_move(&p.recv(), 1, "attacker", &game);
    p.say("= game");
    game.play(mv).unwrap();
    shutdown.request();
    assert_eq!(p.recv(), "leave_game 2");
    p.say("= challenge_requested 2");
    assert_eq!(p.recv(), "decline_game 2");
    // The second request: the bot resigns at its next turn instead of moving.
    shutdown.request();
    let reply = game.legal_moves().as_slice()[0];
    p.say(&format!("game 1 play defender {} {}", reply.from, reply.to));
    p.say("game 1 generate_move attacker");
    assert_eq!(p.recv(), "game 1 play attacker resigns _");
    p.say("= game_over 1 defender_wins");
    assert_eq!(p.recv(), "logout");
    let summary = bot.join().unwrap().unwrap();
    assert_eq!(summary.resigned_on_stop, 1);
    assert_eq!(summary.finished.len(), 1);
    let text = log.text();
    assert!(
        text.contains("stop requested: no new games (1 open offer(s) withdrawn)"),
        "{text}"
    );
    assert!(text.contains("logged out"), "{text}");
}

/// `hnefi bot` with its log on a full disk (`/dev/full`) plays its game to the end and
/// exits 0; SIGTERM while it waits for a challenger ends it with status 0 after a logout.
#[cfg(target_os = "linux")]
#[test]
fn the_process_survives_a_full_log_and_stops_on_sigterm() {
    use std::process::{Command, Stdio};
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full");
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port().to_string();
    let mut child = Command::new(env!("CARGO_BIN_EXE_hnefi"))
        .args(["bot", "--host", "127.0.0.1", "--port", &port])
        .args(["--username", "alice", "--password", "s3cret", "--debug"])
        .args(["--accept-games", "1", "--max-games", "1", "--hash-mb", "1"])
        .stdout(Stdio::null())
        .stderr(full)
        .spawn()
        .unwrap();
    let (mut p, lines) = logged_in(&listener, 1);
    assert!(lines[0].starts_with("new_game "));
    p.say("= new_game 3");
    p.say("= challenge_requested 3");
    assert_eq!(p.recv(), "join_game 3");
    p.say("= game_over 3 attacker_wins");
    assert_eq!(p.recv(), "logout");
    let status = common::wait_exit(&mut child, "hnefi bot with its log on /dev/full");
    assert!(status.success(), "{status}");

    let mut child = Command::new(env!("CARGO_BIN_EXE_hnefi"))
        .args(["bot", "--host", "127.0.0.1", "--port", &port])
        .args(["--username", "alice", "--password", "s3cret"])
        .args(["--accept-games", "1", "--hash-mb", "1"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (mut p, lines) = logged_in(&listener, 1);
    assert!(lines[0].starts_with("new_game "));
    p.say("= new_game 5");
    let sent = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    assert_eq!(p.recv(), "leave_game 5");
    assert_eq!(p.recv(), "logout");
    let out = common::finish_output(&mut child, "hnefi bot after SIGTERM");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    let first = err
        .lines()
        .find(|l| l.starts_with("hnefi "))
        .unwrap_or_default();
    assert!(
        first.starts_with("hnefi ")
            && first.contains(
                " bot (protocol 32d9a140, hnefatafl-copenhagen 6.4.1) as alice on 127.0.0.1:"
            )
            && first.contains("1 offer(s) as the defenders on 11x11 at 900000 ms + 10 s, unrated")
            && first.contains("plays 7x7, 11x11, 13x13"),
        "{first}"
    );
    assert!(!err.contains("s3cret"), "{err}");
    assert!(err.contains("stop requested"), "{err}");
}
