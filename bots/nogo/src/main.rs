//! The NoGo bot: one Botzone turn on stdin, one move on stdout. See `nogo --help`.

use botzone_games::engines;

fn main() {
    frontend::main(engines::nogo::registry())
}
