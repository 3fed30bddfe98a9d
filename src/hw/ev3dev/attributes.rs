//! A sysfs device with every attribute it will use opened up front.
//!
//! Why up front: ev3dev-lang-rust's device types open an attribute the first time it is used and
//! panic if that open fails. Opening them all when the device is opened turns a missing file
//! into an error at start that names it, and once open, a file of a device that goes away
//! answers ENODEV instead of panicking. The files themselves are the crate's `Attribute`s.

use super::{describe, device_error};
use crate::hw::HwError;
use ev3dev_lang_rust::{Attribute, Driver, Ev3Error, Port};
use std::collections::HashMap;
use std::fmt::Display;
use std::str::FromStr;

/// The open attribute files of one device, by attribute name.
#[derive(Debug, Clone)]
pub(super) struct Attributes {
    /// For messages: "large motor (rows axis) on outA".
    device: String,
    files: HashMap<&'static str, Attribute>,
}

impl Attributes {
    /// Opens `names` of the device folder `/sys/class/{class}/{folder}`.
    pub fn open(
        class: &str,
        folder: &str,
        device: &str,
        names: &[&'static str],
    ) -> Result<Attributes, HwError> {
        let mut files = HashMap::new();
        for &name in names {
            let file = Attribute::from_sys_class(class, folder, name).map_err(|error| {
                HwError::failed(
                    device,
                    format!(
                        "its attribute {class}/{folder}/{name} cannot be opened: {}",
                        describe(&error)
                    ),
                )
            })?;
            files.insert(name, file);
        }
        Ok(Attributes {
            device: device.to_string(),
            files,
        })
    }

    pub fn device(&self) -> &str {
        &self.device
    }

    fn file(&self, name: &str) -> Result<&Attribute, HwError> {
        self.files.get(name).ok_or_else(|| {
            HwError::failed(
                &self.device,
                format!("attribute {name} was not opened with the device"),
            )
        })
    }

    /// Reads and parses one attribute.
    pub fn get<T>(&self, name: &str) -> Result<T, HwError>
    where
        T: FromStr,
        T::Err: std::error::Error,
    {
        self.file(name)?
            .get::<T>()
            .map_err(|error| self.error(name, &error))
    }

    /// Reads an attribute that holds a list of words (`state`).
    pub fn words(&self, name: &str) -> Result<Vec<String>, HwError> {
        self.file(name)?
            .get_vec()
            .map_err(|error| self.error(name, &error))
    }

    /// Writes one attribute.
    pub fn set(&self, name: &str, value: impl Display) -> Result<(), HwError> {
        self.file(name)?
            .set_str_slice(&value.to_string())
            .map_err(|error| self.error(name, &error))
    }

    fn error(&self, name: &str, error: &Ev3Error) -> HwError {
        match device_error(&self.device, error) {
            HwError::Failed { device, message } => HwError::Failed {
                device,
                message: format!("{name}: {message}"),
            },
            other => other,
        }
    }
}

/// The sysfs folder name of the device of `class` on `port` whose driver is one of `drivers`,
/// or "no `device` on `port`".
pub(super) fn find_on_port(
    class: &str,
    port: &dyn Port,
    drivers: &[&str],
    device: &str,
    port_name: &str,
) -> Result<String, HwError> {
    Driver::find_name_by_port_and_driver(class, port, drivers).map_err(|error| match error {
        // No such device; or no such class at all, as on a machine that is not a brick.
        Ev3Error::NotConnected { .. } => not_found(device, port_name),
        ref other if describe(other).contains("os error 2)") => not_found(device, port_name),
        other => HwError::failed(device, describe(&other)),
    })
}

fn not_found(device: &str, port: &str) -> HwError {
    HwError::NotFound {
        device: device.to_string(),
        port: port.to_string(),
    }
}

/// True if `/sys/class/{class}` exists.
pub(super) fn class_exists(class: &str) -> bool {
    Driver::find_names_by_driver(class, &[]).is_ok()
}
