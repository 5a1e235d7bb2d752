//! What both connector tests share: the arena's misbehaving test bot.

use std::path::Path;

/// The arena's test bot (`bots/arena/src/bin/fakebot.rs`: a random mover, and bots that
/// sleep, crash or print garbage), which lives beside this package's binary: `cargo test
/// --workspace` (what `make test` runs) builds every binary before any test runs.
pub fn fakebot() -> String {
    let connect = Path::new(env!("CARGO_BIN_EXE_connect"));
    let path = connect.with_file_name(format!("fakebot{}", std::env::consts::EXE_SUFFIX));
    assert!(
        path.exists(),
        "{} is missing: run the workspace's tests (`cargo test --workspace`), or build it first \
         (`cargo build -p arena --bin fakebot`, with the same profile)",
        path.display()
    );
    path.display().to_string()
}
