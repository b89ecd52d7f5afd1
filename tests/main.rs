//! The integration tests, linked into one binary: each file beside this one is a module,
//! so that the crate is linked once for them all instead of once a file. Run one file's
//! tests with its module name as the filter, e.g. `cargo test --release --test integration
//! -- perft::`.

mod case_file;
mod common;
mod reference;

mod annotate;
mod berserk_play;
mod bot_rules;
mod bot_scripted;
mod bot_server;
mod copenhagen_opentafl;
mod doc_examples;
mod fetlar_opentafl;
mod fetlar_rules;
mod fetlar_study;
mod layers;
mod levels;
mod match_berserk;
mod match_runner;
mod opentafl_berserk;
mod opentafl_specials;
mod opentafl_variants;
mod oriented;
mod otep_engine;
mod perft;
mod pictures;
mod players;
mod properties;
mod protocol_analyze;
mod protocol_budget;
mod protocol_cli;
mod protocol_fuzz;
mod protocol_ponder;
mod protocol_replay;
mod protocol_selfplay;
mod protocol_stop;
mod protocol_terminal;
mod protocol_transcripts;
mod reference_engine;
mod reference_perft;
mod refused_threads;
mod replay;
mod rules_cases;
mod rules_strings;
mod samples;
mod search;
mod search_boards;
mod search_threads;
mod train;
mod wdl;
