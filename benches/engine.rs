//! `cargo bench`: the robot's motions and the engine, each against the original robot's, with
//! ratios from one run.
fn main() {
    match ev3_tictactoe::bench::robot::run() {
        Ok(report) => println!("{}", report.render()),
        Err(error) => {
            eprintln!("robot benchmark failed: {error:#}");
            std::process::exit(1);
        }
    }
    print!("{}", ev3_tictactoe::bench::run().render());
}
