//! The Dots-and-Boxes (Pencil) bot: one Botzone turn on stdin, one move on stdout. See `dots --help`.

use botzone_games::dots::Position;
use botzone_games::{bot, engines};

fn main() {
    bot::main::<Position>(engines::dots::engines())
}
