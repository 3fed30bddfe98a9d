//! What the robot's eye measured on the last sheet, in the few short lines the LCD holds: the
//! paper and its noise as the colour sensor reads them, the sensor's spot and the robot's own
//! ink as the grid's crossings measured them, and how often the sensor gives a fresh reading.
//! In millimetres and percent, so a person can hold them against the sensor in front of them.

/// The eye's figures on one sheet.
#[derive(Debug, Clone, PartialEq)]
pub struct EyeReport {
    /// The blank squares' paper, in percent of the sensor's reflected-light scale: the lowest,
    /// the median and the highest square.
    pub paper_percent: (f64, f64, f64),
    /// The readings' scatter on blank paper (one standard deviation), in percent.
    pub noise_percent: f64,
    /// The spot's diameter, in mm: as measured (with its uncertainty) when the grid's
    /// crossings showed it, else `None`.
    pub spot_measured_mm: Option<(f64, f64)>,
    /// `sensing.spot_mm`, the starting guess.
    pub spot_configured_mm: f64,
    /// How much darker than the paper the robot's own ink reads, from 0 to 1, if measured.
    pub own_ink_contrast: Option<f64>,
    /// The time between two fresh readings of the sensor, in ms.
    pub read_period_ms: f64,
}

impl EyeReport {
    /// Lines of at most 29 characters, the LCD's width.
    pub fn lines(&self) -> Vec<String> {
        let (lowest, median, highest) = self.paper_percent;
        let mut lines = vec![
            format!("Paper {median:.0} % ({lowest:.0} to {highest:.0})"),
            format!("Noise {:.1} %", self.noise_percent),
        ];
        match self.spot_measured_mm {
            Some((spot, give_or_take)) => {
                lines.push(format!("Spot {spot:.1} mm, +-{give_or_take:.1}"));
                lines.push(format!("  (config {:.1} mm)", self.spot_configured_mm));
            }
            None => lines.push(format!("Spot {:.1} mm (config)", self.spot_configured_mm)),
        }
        if let Some(contrast) = self.own_ink_contrast {
            // The crossings' fit can put black ink a little past black (1.01 measured on the
            // simulator's): no ink reads darker than no light at all.
            let contrast = contrast.clamp(0.0, 1.0);
            lines.push(format!("My ink {:.0} % darker", contrast * 100.0));
        }
        lines.push(format!("A reading every {:.0} ms", self.read_period_ms));
        lines
    }

    /// Before any sheet was read this run.
    pub fn nothing_yet() -> Vec<String> {
        vec![
            "Nothing measured yet:".into(),
            "I measure my eye on every".into(),
            "sheet. Play a game, then".into(),
            "look here.".into(),
        ]
    }

    /// A report with every line, for tests of the page.
    #[cfg(test)]
    pub fn example() -> EyeReport {
        EyeReport {
            paper_percent: (66.0, 74.0, 80.0),
            noise_percent: 1.2,
            spot_measured_mm: Some((11.8, 0.3)),
            spot_configured_mm: 12.0,
            own_ink_contrast: Some(0.88),
            read_period_ms: 10.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_eye_is_told_in_millimetres_and_percent_in_lines_the_lcd_holds() {
        let lines = EyeReport::example().lines();
        assert_eq!(
            lines,
            [
                "Paper 74 % (66 to 80)",
                "Noise 1.2 %",
                "Spot 11.8 mm, +-0.3",
                "  (config 12.0 mm)",
                "My ink 88 % darker",
                "A reading every 10 ms",
            ]
        );
        for line in lines.iter().chain(EyeReport::nothing_yet().iter()) {
            assert!(line.chars().count() <= 29, "{line}");
        }
    }

    #[test]
    fn a_spot_the_grid_could_not_measure_is_named_as_the_configs_guess() {
        let report = EyeReport {
            spot_measured_mm: None,
            own_ink_contrast: None,
            ..EyeReport::example()
        };
        let lines = report.lines();
        assert!(lines.contains(&"Spot 12.0 mm (config)".to_string()));
        assert!(!lines.iter().any(|l| l.contains("ink")));
        let past_black = EyeReport {
            own_ink_contrast: Some(1.01),
            ..EyeReport::example()
        };
        assert!(past_black
            .lines()
            .contains(&"My ink 100 % darker".to_string()));
    }
}
