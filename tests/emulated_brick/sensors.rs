//! The colour and touch sensors' lego-sensor attributes.

use super::{Tree, CLASS};

impl Tree {
    pub fn sensor(&mut self, name: &str, port: &str, driver: &str, mode: &str) {
        let dir = format!("{CLASS}/lego-sensor/{name}");
        self.folder(&dir);
        self.attribute(
            &format!("{dir}/address"),
            &format!("ev3-ports:{port}"),
            false,
        );
        self.attribute(&format!("{dir}/driver_name"), driver, false);
        self.attribute(&format!("{dir}/mode"), mode, true);
        self.attribute(&format!("{dir}/value0"), "0", false);
        self.attribute(&format!("{dir}/num_values"), "1", false);
    }
}
