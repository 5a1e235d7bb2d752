//! The Dots-and-Boxes (Pencil) bot: one Botzone turn on stdin, one move on stdout. See `dots --help`.

use botzone_games::bot;
use botzone_games::dots::Position;

fn main() {
    bot::main::<Position>(bot::generic_engines())
}
