//! espeak and aplay stood in for on the emulated brick: each sentence takes as long to say as
//! espeak would take at the program's rate, is written down, and while it is said a file marks
//! that the brick's CPU is shared with the voice (the emulated brick and the pacing plugin make
//! the program's work cost more meanwhile: [`ESPEAK_SHARE`]).

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// The share of the brick's CPU espeak takes while it speaks. espeak's author measured it on
/// a 200 MHz ARM with no FPU, as the EV3's has none: 51 s of work for 6 min 3 s of speech, 14 %
/// (J. Duddington on the Speakup list, February 2007). The EV3's ARM926 runs at 300 MHz, which
/// would make it some 9 %; the harsher, unscaled figure is kept. aplay's own share (copying
/// the sound into ALSA's dmix) is not in it: no one has published it for a brick.
pub const ESPEAK_SHARE: f64 = 0.14;

/// espeak's rate when no `-s` is given: 175 words a minute (espeak's manual).
const ESPEAK_DEFAULT_WORDS_PER_MINUTE: u32 = 175;

/// The stand-ins, in a `bin` folder of their own.
pub struct StandInVoice {
    bin: PathBuf,
    spoken: PathBuf,
    speaking: PathBuf,
}

impl StandInVoice {
    /// Writes the stand-ins into `dir`.
    pub fn new(dir: &Path) -> StandInVoice {
        let bin = dir.join("bin");
        std::fs::create_dir_all(&bin).unwrap();
        let voice = StandInVoice {
            spoken: dir.join("spoken.txt"),
            speaking: dir.join("speaking"),
            bin,
        };
        // The sentence is the last argument; `-s N` sets the rate. The marker is there for as
        // long as the sentence takes to say: its words at that rate.
        let espeak = format!(
            "#!/bin/sh\n\
             rate={ESPEAK_DEFAULT_WORDS_PER_MINUTE}\n\
             while [ $# -gt 1 ]; do\n\
             \x20 if [ \"$1\" = -s ]; then rate=$2; shift; fi\n\
             \x20 shift\n\
             done\n\
             words=$(echo \"$1\" | wc -w)\n\
             printf '%s\\t%s\\t%s\\n' \"$rate\" \"$words\" \"$1\" >> '{spoken}'\n\
             touch '{speaking}'\n\
             sleep $(awk \"BEGIN {{ print $words * 60 / $rate }}\")\n\
             rm -f '{speaking}'\n",
            spoken = voice.spoken.display(),
            speaking = voice.speaking.display(),
        );
        voice.install("espeak", &espeak);
        // aplay plays what espeak wrote, which the stand-in does not: it only drains it.
        voice.install("aplay", "#!/bin/sh\ncat > /dev/null\n");
        voice
    }

    fn install(&self, name: &str, script: &str) {
        let path = self.bin.join(name);
        std::fs::write(&path, script).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }

    /// The PATH that finds the stand-ins first.
    pub fn path(&self) -> String {
        format!(
            "{}:{}",
            self.bin.display(),
            std::env::var("PATH").unwrap_or_default()
        )
    }

    /// The file that is there while a sentence is said.
    pub fn speaking(&self) -> &Path {
        &self.speaking
    }

    /// Every sentence said so far, in order, and how long each took to say, in seconds.
    pub fn spoken(&self) -> Vec<(String, f64)> {
        std::fs::read_to_string(&self.spoken)
            .unwrap_or_default()
            .lines()
            .filter_map(|line| {
                let mut fields = line.splitn(3, '\t');
                let rate: f64 = fields.next()?.trim().parse().ok()?;
                let words: f64 = fields.next()?.trim().parse().ok()?;
                Some((fields.next()?.to_string(), words * 60.0 / rate))
            })
            .collect()
    }
}
