//! The layering of the crate: no file of `src/core/` (nor of `src/search/`, nor of any
//! other directory of `src/`) uses a sibling that, through its own uses, comes back to it;
//! none of the top-level modules (`core`, `search`, `protocol`, ...) either, and the core
//! uses none of them. Read from the sources, as a new engineer would: a use is any path
//! through `super::NAME` or `crate::DIR::NAME` (`crate::NAME` between top-level modules)
//! outside comments and test modules, so that a doc link does not count and a module's
//! tests may use anything; a name a directory's `mod.rs` re-exports counts as a use of the
//! file it comes from. The core's and the search's files also keep the layers their
//! `mod.rs` lists (`// N. ...` above each layer's `mod` lines): none uses a later layer.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The module names of `dir`'s files (`mod.rs`, the parent, aside).
fn modules(dir: &Path) -> BTreeSet<String> {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    entries
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            let stem = name.strip_suffix(".rs")?;
            (stem != "mod").then(|| stem.to_string())
        })
        .collect()
}

/// `text` without comments and without the bodies of `#[cfg(test)]` modules.
fn code(text: &str) -> String {
    let mut out = String::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("#[cfg(test)]")
            && lines
                .peek()
                .is_some_and(|l| l.trim_start().starts_with("mod "))
        {
            if lines.peek().is_some_and(|l| l.trim_end().ends_with(';')) {
                lines.next();
                continue;
            }
            // Skip the module: up to the line that balances its braces.
            let mut depth = 0i32;
            for l in lines.by_ref() {
                depth += l.matches('{').count() as i32 - l.matches('}').count() as i32;
                if depth <= 0 && l.contains('}') {
                    break;
                }
            }
            continue;
        }
        let without_comment = match line.find("//") {
            Some(at) => &line[..at],
            None => line,
        };
        out.push_str(without_comment);
        out.push('\n');
    }
    out
}

/// The identifier at the start of `s`.
fn ident(s: &str) -> &str {
    let end = s
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    &s[..end]
}

/// The first names of the paths in the group that opens `s` (`{a::X, b, c::{Y, Z}}`).
fn group_heads(s: &str) -> Vec<&str> {
    let mut heads = Vec::new();
    let mut depth = 0;
    let mut start = true;
    for (i, c) in s.char_indices() {
        match c {
            '{' => {
                depth += 1;
                if depth == 1 {
                    start = true;
                    continue;
                }
            }
            '}' => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            ',' if depth == 1 => {
                start = true;
                continue;
            }
            c if c.is_whitespace() => continue,
            _ => {}
        }
        if start && depth == 1 {
            heads.push(ident(&s[i..]));
        }
        start = false;
    }
    heads
}

/// The siblings among `names` that `code` uses through one of `prefixes`, a name the
/// directory's `mod.rs` re-exports (`reexported`, name to file) counted as a use of the
/// file it comes from.
fn uses(
    code: &str,
    prefixes: &[&str],
    names: &BTreeSet<String>,
    reexported: &BTreeMap<String, String>,
) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for prefix in prefixes {
        for (at, _) in code.match_indices(prefix) {
            let rest = &code[at + prefix.len()..];
            let heads = if rest.starts_with('{') {
                group_heads(rest)
            } else {
                vec![ident(rest)]
            };
            found.extend(heads.into_iter().filter_map(|h| {
                if names.contains(h) {
                    Some(h.to_string())
                } else {
                    reexported.get(h).cloned()
                }
            }));
        }
    }
    found
}

/// The names `mod_rs` (a directory's `mod.rs`) re-exports from its files among `names`
/// (`pub use file::{A, B};`, `pub(crate) use file::A;`), each with its file.
fn reexports(mod_rs: &str, names: &BTreeSet<String>) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for statement in code(mod_rs).split(';') {
        let Some(at) = statement.find("use ") else {
            continue;
        };
        let path = statement[at + 4..].trim();
        let Some((file, items)) = path.split_once("::") else {
            continue;
        };
        if !names.contains(file) {
            continue;
        }
        let items = items.trim();
        let exported = if items.starts_with('{') {
            group_heads(items)
        } else {
            vec![ident(items)]
        };
        for name in exported.into_iter().filter(|n| *n != "self") {
            out.insert(name.to_string(), file.to_string());
        }
    }
    out
}

/// The layer of each file of a directory, read from its `mod.rs` (`mod_rs`): a comment
/// `// N. ...` opens layer N, and each `mod NAME;` after it is in that layer.
fn layers(mod_rs: &str) -> BTreeMap<String, u32> {
    let mut out = BTreeMap::new();
    let mut layer = None;
    for line in mod_rs.lines() {
        let line = line.trim();
        if let Some(rest) = line.strip_prefix("// ") {
            if let Some((n, _)) = rest.split_once(". ") {
                layer = n.parse().ok().or(layer);
            }
            continue;
        }
        let Some(at) = line.find("mod ") else {
            continue;
        };
        if let (Some(n), Some(name)) = (layer, line[at + 4..].strip_suffix(';')) {
            out.insert(name.to_string(), n);
        }
    }
    out
}

/// The uses of `graph` that go from a file to one of a later layer, as `(from, to)`.
fn upward(
    graph: &BTreeMap<String, BTreeSet<String>>,
    layer: &BTreeMap<String, u32>,
) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (from, used) in graph {
        for to in used {
            if layer.get(to) > layer.get(from) {
                out.push((from.clone(), to.clone()));
            }
        }
    }
    out
}

/// The files of `dir` (under `src/`, as `core` or `tools/matches`) and the siblings each
/// uses.
fn graph(dir: &str) -> BTreeMap<String, BTreeSet<String>> {
    let path = src().join(dir);
    let names = modules(&path);
    let prefixes = [
        "super::".to_string(),
        format!("crate::{}::", dir.replace('/', "::")),
    ];
    let prefixes: Vec<&str> = prefixes.iter().map(String::as_str).collect();
    let mod_rs = path.join("mod.rs");
    let reexported = if mod_rs.is_file() {
        reexports(&read(&mod_rs), &names)
    } else {
        BTreeMap::new()
    };
    names
        .iter()
        .map(|m| {
            let file = path.join(format!("{m}.rs"));
            let mut used = uses(&code(&read(&file)), &prefixes, &names, &reexported);
            used.remove(m);
            (m.clone(), used)
        })
        .collect()
}

/// The crate's top-level modules (`src/NAME.rs` or `src/NAME/`) and the others each uses
/// through `crate::` in any of its files.
fn top_level_graph() -> BTreeMap<String, BTreeSet<String>> {
    let names: BTreeSet<String> = modules(&src())
        .into_iter()
        .chain(dirs("").into_iter().filter(|d| !d.contains('/')))
        .filter(|m| m != "lib" && m != "main")
        .collect();
    names
        .iter()
        .map(|m| {
            let single = src().join(format!("{m}.rs"));
            let files = if single.is_file() {
                vec![single]
            } else {
                std::iter::once(m.clone())
                    .chain(dirs(m))
                    .flat_map(|d| modules_with_parent(&src().join(&d)))
                    .collect()
            };
            let mut used = BTreeSet::new();
            for f in files {
                used.extend(uses(
                    &code(&read(&f)),
                    &["crate::"],
                    &names,
                    &BTreeMap::new(),
                ));
            }
            used.remove(m);
            (m.clone(), used)
        })
        .collect()
}

fn src() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every directory under `src/NAME` (every one under `src/` for ""), as paths from `src/`.
fn dirs(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut todo = vec![name.to_string()];
    while let Some(d) = todo.pop() {
        let entries = std::fs::read_dir(src().join(&d)).unwrap_or_else(|e| panic!("{d}: {e}"));
        for e in entries.flatten() {
            let Ok(file) = e.file_name().into_string() else {
                continue;
            };
            if e.path().is_dir() {
                let sub = if d.is_empty() {
                    file
                } else {
                    format!("{d}/{file}")
                };
                out.push(sub.clone());
                todo.push(sub);
            }
        }
    }
    out
}

/// The `.rs` files of `dir`, `mod.rs` included.
fn modules_with_parent(dir: &Path) -> Vec<std::path::PathBuf> {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "rs"))
        .collect()
}

/// A cycle of `graph` as the path that closes it, if there is one.
fn cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    // 0 unseen, 1 on the current path, 2 done.
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(node.to_string(), 1);
        path.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            match state.get(next.as_str()).copied().unwrap_or(0) {
                1 => {
                    let from = path.iter().position(|p| p == next).unwrap_or(0);
                    let mut c = path[from..].to_vec();
                    c.push(next.clone());
                    return Some(c);
                }
                0 => {
                    if let Some(c) = visit(next, graph, state, path) {
                        return Some(c);
                    }
                }
                _ => {}
            }
        }
        path.pop();
        state.insert(node.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for node in graph.keys() {
        if state.get(node.as_str()).copied().unwrap_or(0) == 0 {
            let found = visit(node, graph, &mut state, &mut Vec::new());
            if found.is_some() {
                return found;
            }
        }
    }
    None
}

#[test]
fn the_reader_finds_uses_and_cycles() {
    let names: BTreeSet<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
    let text = "use super::{a::X, b};\n// super::c\nfn f() { crate::core::c::g() }\n\
                #[cfg(test)]\nmod tests {\n    use super::super::a;\n}\n";
    let none = BTreeMap::new();
    let found = uses(&code(text), &["super::", "crate::core::"], &names, &none);
    assert_eq!(found, names);
    let commented = uses(&code("// use super::a;\n"), &["super::"], &names, &none);
    assert!(commented.is_empty());
    // A name the parent re-exports is a use of the file it comes from.
    let mod_rs = "// 1. Low.\nmod a;\npub(crate) mod b;\n\n// 2. High.\npub mod c;\n\n\
                  pub(crate) use a::X;\npub use b::{Y, Z};\n";
    let reexported = reexports(mod_rs, &names);
    assert_eq!(reexported.get("X").map(String::as_str), Some("a"));
    assert_eq!(reexported.get("Y").map(String::as_str), Some("b"));
    let through = uses(
        &code("use super::{X, Y};\n"),
        &["super::"],
        &names,
        &reexported,
    );
    assert_eq!(through, BTreeSet::from(["a".to_string(), "b".to_string()]));
    // The layers a mod.rs states, and a use that goes up them.
    let layer = layers(mod_rs);
    assert_eq!(layer.get("b"), Some(&1));
    assert_eq!(layer.get("c"), Some(&2));
    let mut up = BTreeMap::new();
    up.insert("a".to_string(), BTreeSet::from(["c".to_string()]));
    up.insert("c".to_string(), BTreeSet::from(["b".to_string()]));
    assert_eq!(
        upward(&up, &layer),
        vec![("a".to_string(), "c".to_string())]
    );
    let mut g = BTreeMap::new();
    g.insert("a".to_string(), BTreeSet::from(["b".to_string()]));
    g.insert("b".to_string(), BTreeSet::from(["c".to_string()]));
    g.insert("c".to_string(), BTreeSet::new());
    assert_eq!(cycle(&g), None);
    g.insert("c".to_string(), BTreeSet::from(["a".to_string()]));
    assert_eq!(
        cycle(&g),
        Some(
            vec!["a", "b", "c", "a"]
                .into_iter()
                .map(String::from)
                .collect()
        )
    );
}

#[test]
fn the_rules_core_has_no_import_cycle() {
    let g = graph("core");
    assert!(g.len() > 30, "read {} files of src/core", g.len());
    assert_eq!(cycle(&g), None, "a cycle among src/core's files");
}

#[test]
fn the_search_has_no_import_cycle() {
    let g = graph("search");
    assert!(g.len() > 20, "read {} files of src/search", g.len());
    assert_eq!(cycle(&g), None, "a cycle among src/search's files");
}

#[test]
fn no_directory_of_src_has_an_import_cycle() {
    let all = dirs("");
    assert!(all.len() >= 8, "read {all:?}");
    for dir in all {
        assert_eq!(cycle(&graph(&dir)), None, "a cycle among src/{dir}'s files");
    }
}

#[test]
fn the_top_level_modules_have_no_import_cycle() {
    let g = top_level_graph();
    assert!(g.len() >= 10, "read {:?}", g.keys());
    assert!(
        g.get("core").is_some_and(BTreeSet::is_empty),
        "the core uses {:?}",
        g.get("core")
    );
    assert_eq!(
        cycle(&g),
        None,
        "a cycle among the crate's top-level modules"
    );
}

/// Every file of `src/DIR` is in a layer of its `mod.rs`, and none uses a file of a later
/// layer.
fn assert_layered(dir: &str) {
    let g = graph(dir);
    let layer = layers(&read(&src().join(dir).join("mod.rs")));
    let unplaced: Vec<&String> = g.keys().filter(|m| !layer.contains_key(*m)).collect();
    assert!(
        unplaced.is_empty(),
        "src/{dir}/mod.rs places no layer for {unplaced:?}"
    );
    assert_eq!(
        upward(&g, &layer),
        Vec::new(),
        "uses of src/{dir} that go up its layers"
    );
}

#[test]
fn the_rules_core_keeps_its_layers() {
    assert_layered("core");
}

#[test]
fn the_search_keeps_its_layers() {
    assert_layered("search");
}
