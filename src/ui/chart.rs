//! The frame of every PNG chart: plotters drawing into an in-memory bitmap with the embedded
//! DejaVu Sans, in nestor's dark palette; text styles, the colour scale, the heat colours.

use std::sync::Once;

use plotters::chart::MeshStyle;
use plotters::coord::ranged1d::Ranged;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::{register_font, FontStyle};

use super::render::{Frame, Rgb, BACKGROUND, BORDER, GRID, TEXT};

/// The one font family the charts use; registered to the embedded DejaVu Sans.
pub const FONT: &str = "sans-serif";

/// DejaVu Sans 2.37 (Bitstream Vera licence, assets/fonts/LICENSE-DejaVu.txt): embedded so the
/// charts look the same everywhere and need no font library on the system.
static DEJAVU_SANS: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");

/// The bars' colour.
pub const BAR: Rgb = [80, 160, 255];

/// A drawing error (plotters' own; with an in-memory bitmap only a font problem causes one).
pub type DrawError = DrawingAreaErrorKind<<BitMapBackend<'static> as DrawingBackend>::ErrorType>;

/// The drawing area a chart function draws on.
pub type Area<'a> = DrawingArea<BitMapBackend<'a>, Shift>;

/// Why a chart could not be drawn.
#[derive(Debug, thiserror::Error)]
#[error("cannot draw the chart: {0}")]
pub struct ChartError(String);

/// `c` as a plotters colour.
pub fn colour(c: Rgb) -> RGBColor {
    RGBColor(c[0], c[1], c[2])
}

/// Text of `size` pixels in the text colour.
pub fn text(size: u32) -> TextStyle<'static> {
    static TEXT_COLOUR: RGBColor = RGBColor(TEXT[0], TEXT[1], TEXT[2]);
    TextStyle::from((FONT, size).into_font()).color(&TEXT_COLOUR)
}

/// The chart's title style.
pub fn title() -> TextStyle<'static> {
    text(22)
}

/// Tick labels.
pub fn ticks() -> TextStyle<'static> {
    text(14)
}

/// Axis names (quantity and unit).
pub fn axis_name() -> TextStyle<'static> {
    text(16)
}

/// The axis line colour.
pub fn axis() -> RGBColor {
    colour(BORDER)
}

/// The grid line colour.
pub fn grid_line() -> RGBColor {
    colour(GRID)
}

/// A chart with a title over its plot: the margins and label areas every titled chart uses.
pub fn titled_chart<'a, 'b>(
    root: &'a Area<'b>,
    caption: impl AsRef<str>,
) -> ChartBuilder<'a, 'static, BitMapBackend<'b>> {
    let mut c = ChartBuilder::on(root);
    c.caption(caption, title())
        .margin(14)
        .x_label_area_size(54)
        .y_label_area_size(70);
    c
}

/// The house style of a chart's axes: tick labels, axis names and axis lines.
pub fn axes_style<'m, 'a, 'b, 'd, X: Ranged, Y: Ranged>(
    mesh: &'m mut MeshStyle<'a, 'b, X, Y, BitMapBackend<'d>>,
) -> &'m mut MeshStyle<'a, 'b, X, Y, BitMapBackend<'d>> {
    mesh.label_style(ticks())
        .axis_desc_style(axis_name())
        .axis_style(axis())
}

/// [`axes_style`] with the grid: major lines in the grid colour, no minor lines.
pub fn grid_style<'m, 'a, 'b, 'd, X: Ranged, Y: Ranged>(
    mesh: &'m mut MeshStyle<'a, 'b, X, Y, BitMapBackend<'d>>,
) -> &'m mut MeshStyle<'a, 'b, X, Y, BitMapBackend<'d>> {
    axes_style(mesh)
        .bold_line_style(grid_line())
        .light_line_style(TRANSPARENT)
}

/// A `width`×`height` chart on nestor's background, drawn by `draw`, as a [`Frame`].
pub fn draw_chart(
    width: u32,
    height: u32,
    draw: impl FnOnce(&Area) -> Result<(), DrawError>,
) -> Result<Frame, ChartError> {
    static FONT_ONCE: Once = Once::new();
    let mut registered = Ok(());
    // plotters keeps registered fonts in a table of its own; one registration serves all.
    FONT_ONCE.call_once(|| {
        registered = register_font(FONT, FontStyle::Normal, DEJAVU_SANS)
            .map_err(|_| ChartError("the embedded DejaVu Sans is not a valid font".into()));
    });
    registered?;
    let mut rgb = vec![0u8; width as usize * height as usize * 3];
    {
        let root = BitMapBackend::with_buffer(&mut rgb, (width, height)).into_drawing_area();
        root.fill(&colour(BACKGROUND))
            .map_err(|e| ChartError(e.to_string()))?;
        draw(&root).map_err(|e| ChartError(e.to_string()))?;
        root.present().map_err(|e| ChartError(e.to_string()))?;
    }
    let mut rgba = Vec::with_capacity(rgb.len() / 3 * 4);
    for p in rgb.chunks_exact(3) {
        rgba.extend_from_slice(&[p[0], p[1], p[2], 255]);
    }
    Frame::from_rgba(width as usize, height as usize, rgba).map_err(|e| ChartError(e.to_string()))
}

/// The heat colour of a share 0..1 (viridis: dark purple → green → yellow, even in lightness,
/// readable by colour-blind people).
pub fn heat_colour(t: f64) -> Rgb {
    let c = ViridisRGB::get_color(t.clamp(0.0, 1.0));
    [c.0, c.1, c.2]
}

/// A vertical colour scale filling `area`: values 0..`top` along the right-hand axis named
/// `name`, coloured by `colour_of(value)`.
pub fn colour_scale(
    area: &Area,
    top: f64,
    name: &str,
    colour_of: impl Fn(f64) -> Rgb,
) -> Result<(), DrawError> {
    let top = top.max(1.0);
    let mut c = ChartBuilder::on(area)
        .margin_top(60)
        .margin_bottom(64)
        .margin_right(8)
        .set_label_area_size(LabelAreaPosition::Right, 70)
        .build_cartesian_2d(0f64..1f64, 0f64..top)?;
    axes_style(&mut c.configure_mesh())
        .disable_mesh()
        .disable_x_axis()
        .y_desc(name)
        .y_labels(6)
        .y_label_formatter(&|v| tick_label(*v))
        .draw()?;
    const STEPS: usize = 200;
    c.draw_series((0..STEPS).map(|i| {
        let (lo, hi) = (
            top * i as f64 / STEPS as f64,
            top * (i + 1) as f64 / STEPS as f64,
        );
        Rectangle::new(
            [(0.0, lo), (1.0, hi)],
            colour(colour_of((lo + hi) / 2.0)).filled(),
        )
    }))?;
    Ok(())
}

/// A short tick label: 0, 50, 1.5K, 250K, 1M.
pub fn tick_label(v: f64) -> String {
    let a = v.abs();
    let short = |x: f64, unit: &str| {
        if (x - x.round()).abs() < 1e-9 {
            format!("{}{unit}", x.round())
        } else {
            format!("{x:.1}{unit}")
        }
    };
    if a >= 1e6 {
        short(v / 1e6, "M")
    } else if a >= 1e4 {
        short(v / 1e3, "K")
    } else {
        short(v, "")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tick_labels_are_short() {
        assert_eq!(tick_label(0.0), "0");
        assert_eq!(tick_label(50.0), "50");
        assert_eq!(tick_label(1500.0), "1500");
        assert_eq!(tick_label(250_000.0), "250K");
        assert_eq!(tick_label(1_000_000.0), "1M");
        assert_eq!(tick_label(2_500_000.0), "2.5M");
    }

    #[test]
    fn a_chart_has_its_size_the_background_and_text_pixels() {
        let f = draw_chart(200, 100, |a| {
            a.draw(&Text::new("HELLO", (10, 10), title()))?;
            Ok(())
        })
        .unwrap();
        assert_eq!((f.width, f.height), (200, 100));
        assert_eq!(f.rgb(199, 99), Some(BACKGROUND));
        let lit = (0..100)
            .flat_map(|y| (0..200).map(move |x| (x, y)))
            .filter(|&(x, y)| f.rgb(x, y) != Some(BACKGROUND))
            .count();
        assert!(lit > 50, "the title is drawn with the embedded font: {lit}");
    }

    #[test]
    fn heat_runs_dark_to_light() {
        let lum = |c: Rgb| 0.3 * f64::from(c[0]) + 0.59 * f64::from(c[1]) + 0.11 * f64::from(c[2]);
        assert!(lum(heat_colour(0.0)) < lum(heat_colour(0.5)));
        assert!(lum(heat_colour(0.5)) < lum(heat_colour(1.0)));
    }
}
