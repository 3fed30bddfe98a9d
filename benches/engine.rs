//! `cargo bench`: the engine against the original robot's search, with ratios from one run.
fn main() {
    print!("{}", ev3_tictactoe::bench::run().render());
}
