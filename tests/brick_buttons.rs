//! The brick's buttons on a device file that cannot answer the key-state request: a plain
//! file here, and under `qemu-arm` (the ARM test run) whatever the emulator makes of the
//! request. Either way it is "no buttons" with the reason, never a panic: ev3dev-lang-rust's
//! own reader panicked on this path on every glibc target, before it even asked.
//!
//! One test in its own binary, because it points the program's /dev at a folder of its own
//! through the environment.

use ev3_tictactoe::hw::ev3dev::{Ev3Buttons, DEVICE_DIR_VARIABLE};

#[test]
fn a_file_that_is_no_input_device_means_no_buttons_not_a_panic() {
    let folder = tempfile::tempdir().unwrap();
    let keys = folder.path().join("input/by-path/platform-gpio_keys-event");
    std::fs::create_dir_all(keys.parent().unwrap()).unwrap();
    std::fs::write(&keys, b"").unwrap();
    std::env::set_var(DEVICE_DIR_VARIABLE, folder.path());
    let message = Ev3Buttons::open()
        .err()
        .expect("a plain file has no key state")
        .to_string();
    assert!(
        message.starts_with("the brick buttons failed: ")
            && message.contains("does not answer the key-state request (EVIOCGKEY)"),
        "{message}"
    );
    std::env::remove_var(DEVICE_DIR_VARIABLE);
    let missing = Ev3Buttons::open()
        .err()
        .expect("no such device here")
        .to_string();
    assert!(missing.contains("cannot open"), "{missing}");
}
