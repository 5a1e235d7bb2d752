//! The Dots-and-Boxes (Pencil) bot: one Botzone turn on stdin, one move on stdout. See `dots --help`.

use botzone_games::engines;

fn main() {
    frontend::main(engines::dots::registry())
}
