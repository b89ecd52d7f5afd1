//! A person at a terminal gets line editing, history, completion of command names and
//! `show_board` in colour:
//! the engine runs under `script(1)` (util-linux), which gives it a pseudo-terminal as
//! stdin and stdout, and the test types keys into it. A pipe gets the protocol byte for
//! byte (every other protocol test), so an arrow key's escape there is still refused.
//!
//! On Linux the test always runs, and fails if no pseudo-terminal can be had; elsewhere
//! (no `script -e -c` of util-linux) it is reported as ignored, with the reason.

use crate::common;

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Waits until the output so far contains `text` `times` times (or fails after a while).
fn wait_for(rx: &mpsc::Receiver<Vec<u8>>, out: &mut String, text: &str, times: usize) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while out.matches(text).count() < times {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(bytes) => out.push_str(&String::from_utf8_lossy(&bytes)),
            Err(_) => panic!("{text:?} did not come {times} time(s); the terminal showed:\n{out}"),
        }
    }
}

#[test]
#[cfg_attr(
    not(target_os = "linux"),
    ignore = "needs util-linux script(1) for a pseudo-terminal"
)]
fn a_terminal_edits_recalls_and_completes_lines() {
    let command = format!("{} 2>/dev/null", common::BIN);
    let mut child = Command::new("script")
        .args(["-q", "-f", "-e", "-c", &command, "/dev/null"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("script(1) from util-linux, for a pseudo-terminal");
    let mut keys = child.stdin.take().expect("stdin");
    let mut screen = child.stdout.take().expect("stdout");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = screen.read(&mut buf) {
            if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                break;
            }
        }
    });
    let mut out = String::new();
    let mut type_keys = |k: &str| {
        keys.write_all(k.as_bytes()).expect("type");
        keys.flush().expect("flush");
    };
    // The editor is up once the engine answers a first line.
    type_keys("name\r");
    wait_for(&rx, &mut out, "= hnefi", 1);
    // Editing: `nme`, two steps left, `a` between n and m.
    type_keys("nme\x1b[D\x1b[Da\r");
    wait_for(&rx, &mut out, "= hnefi", 2);
    // History: Up recalls the line.
    type_keys("\x1b[A\r");
    wait_for(&rx, &mut out, "= hnefi", 3);
    // Completion: Tab completes the command's name.
    type_keys("list_comm\t\r");
    wait_for(&rx, &mut out, "analyze", 1);
    assert!(!out.contains("control character"), "{out}");
    assert!(!out.contains("unknown command"), "{out}");
    type_keys("quit\r");
    let status = common::wait_exit(&mut child, "hnefi on a terminal after quit");
    assert!(status.success(), "exit status {status}");
}

/// At a terminal `show_board` draws in colour (the king's `K` bold yellow, a plain rank
/// line nowhere), and in plain text when `NO_COLOR` is set.
#[test]
#[cfg_attr(
    not(target_os = "linux"),
    ignore = "needs util-linux script(1) for a pseudo-terminal"
)]
fn show_board_is_in_colour_at_a_terminal_unless_no_color() {
    let plain_rank = " 6  X X . O O K O O . X X";
    for no_color in [false, true] {
        let command = format!("{} 2>/dev/null", common::BIN);
        let mut script = Command::new("script");
        script
            .args(["-q", "-f", "-e", "-c", &command, "/dev/null"])
            .env_remove("NO_COLOR")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if no_color {
            script.env("NO_COLOR", "1");
        }
        let mut child = script
            .spawn()
            .expect("script(1) from util-linux, for a pseudo-terminal");
        let mut keys = child.stdin.take().expect("stdin");
        let mut screen = child.stdout.take().expect("stdout");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = screen.read(&mut buf) {
                if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                    break;
                }
            }
        });
        let mut out = String::new();
        let mut type_keys = |k: &str| {
            keys.write_all(k.as_bytes()).expect("type");
            keys.flush().expect("flush");
        };
        type_keys("name\r");
        wait_for(&rx, &mut out, "= hnefi", 1);
        type_keys("show_board\r");
        wait_for(&rx, &mut out, "attacker to move", 1);
        let king = "\u{1b}[1m\u{1b}[33mK\u{1b}[0m";
        if no_color {
            assert!(out.contains(plain_rank), "NO_COLOR=1: {out:?}");
            assert!(!out.contains(king), "NO_COLOR=1: {out:?}");
        } else {
            assert!(!out.contains(plain_rank), "{out:?}");
            assert!(out.contains(king), "{out:?}");
        }
        type_keys("quit\r");
        let status = common::wait_exit(&mut child, "hnefi on a terminal after quit");
        assert!(status.success(), "exit status {status}");
    }
}
