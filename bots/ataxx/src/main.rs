//! The Ataxx bot: one Botzone turn on stdin, one move on stdout. See `ataxx --help`.

use botzone_games::engines;

fn main() {
    frontend::main(engines::ataxx::registry())
}
