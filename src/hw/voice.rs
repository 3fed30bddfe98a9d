//! The robot's voice: `espeak`, which ev3dev ships, run for each sentence by a thread of its
//! own, so no motion waits on it and sentences come out one after another, in order, however
//! fast they are asked for. On the brick espeak's sound goes to `aplay` through ALSA's dmix, as
//! ev3dev-lang-rust's `sound::speak` does it; that function hands back only aplay's process and
//! leaves espeak's unreaped, so both are run and waited for here. On a PC espeak plays through
//! the desktop's own sound.

use crate::hw::{HwError, Voice};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// At exit, speech still going after this long is stopped: long enough for the last sentence to
/// start and for any program standing in for espeak to take its words, short enough not to hold
/// the exit up.
const GRACE_AT_EXIT: Duration = Duration::from_millis(300);

/// A sentence that has waited this long for the ones before it is dropped: a voice far behind
/// the game helps nobody.
const STALE_AFTER: Duration = Duration::from_secs(10);

/// Says sentences with espeak.
pub struct Espeak {
    to_say: Option<Sender<(Instant, String)>>,
    worker: Option<JoinHandle<()>>,
    /// The processes saying the current sentence.
    speaking: Arc<Mutex<Vec<Child>>>,
    /// Set at exit: the sentences still waiting are not said.
    stopping: Arc<AtomicBool>,
}

impl Espeak {
    /// A voice for the brick (`on_brick`: espeak into aplay) or a PC (espeak alone); `None`
    /// when no `espeak` is on the PATH.
    pub fn new(on_brick: bool) -> Option<Espeak> {
        if !on_path("espeak") {
            return None;
        }
        let (to_say, said) = mpsc::channel::<(Instant, String)>();
        let speaking = Arc::new(Mutex::new(Vec::<Child>::new()));
        let stopping = Arc::new(AtomicBool::new(false));
        let worker = {
            let (speaking, stopping) = (speaking.clone(), stopping.clone());
            std::thread::spawn(move || {
                // In order, each once the one before has been said.
                for (asked, sentence) in said.iter() {
                    if stopping.load(Ordering::SeqCst) {
                        return;
                    }
                    if asked.elapsed() > STALE_AFTER {
                        log::info!("not said, too late: {sentence:?}");
                        continue;
                    }
                    match start(on_brick, &sentence) {
                        Ok(children) => *speaking.lock().unwrap() = children,
                        Err(error) => {
                            log::warn!("espeak could not say {sentence:?}: {error}");
                            continue;
                        }
                    }
                    // Waits for this sentence, without holding the lock that exit needs.
                    loop {
                        let done = speaking
                            .lock()
                            .unwrap()
                            .iter_mut()
                            .all(|child| !matches!(child.try_wait(), Ok(None)));
                        if done {
                            break;
                        }
                        std::thread::sleep(Duration::from_millis(20));
                    }
                    speaking.lock().unwrap().clear();
                }
            })
        };
        Some(Espeak {
            to_say: Some(to_say),
            worker: Some(worker),
            speaking,
            stopping,
        })
    }
}

/// Starts saying `sentence`: espeak into aplay on the brick, espeak alone elsewhere.
fn start(on_brick: bool, sentence: &str) -> std::io::Result<Vec<Child>> {
    if on_brick {
        let mut espeak = Command::new("espeak")
            .args(["--stdout", "-a", "200", "-s", "130", sentence])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?;
        let sound = espeak.stdout.take().expect("espeak's output was piped");
        match Command::new("aplay")
            .args(["-q", "-Dplug:dmix"])
            .stdin(sound)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
        {
            Ok(aplay) => Ok(vec![espeak, aplay]),
            Err(error) => {
                let _ = espeak.kill();
                let _ = espeak.wait();
                Err(error)
            }
        }
    } else {
        Ok(vec![Command::new("espeak")
            .args(["-s", "150", sentence])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()?])
    }
}

/// Whether an executable file `name` is in one of the PATH's folders.
fn on_path(name: &str) -> bool {
    use std::os::unix::fs::PermissionsExt;
    let Some(path) = std::env::var_os("PATH") else {
        return false;
    };
    std::env::split_paths(&path).any(|folder| {
        let file = Path::new(&folder).join(name);
        file.metadata()
            .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    })
}

impl Voice for Espeak {
    fn say(&mut self, sentence: &str) -> Result<(), HwError> {
        let sent = self
            .to_say
            .as_ref()
            .is_some_and(|to_say| to_say.send((Instant::now(), sentence.to_string())).is_ok());
        if sent {
            Ok(())
        } else {
            Err(HwError::failed("voice", "its thread has stopped"))
        }
    }
}

impl Drop for Espeak {
    /// Stops the voice at exit: what is still waiting or being said after `GRACE_AT_EXIT` is
    /// not said.
    fn drop(&mut self) {
        drop(self.to_say.take());
        let until = Instant::now() + GRACE_AT_EXIT;
        let worker = self.worker.take();
        while worker.as_ref().is_some_and(|w| !w.is_finished()) && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(10));
        }
        self.stopping.store(true, Ordering::SeqCst);
        for child in self.speaking.lock().unwrap().iter_mut() {
            let _ = child.kill();
            let _ = child.wait();
        }
        if let Some(worker) = worker {
            let _ = worker.join();
        }
    }
}
