//! An RGBA8 picture and its colours, the surface `render` draws boards on and `font` draws
//! text on; below both, so neither imports the other.

use std::path::PathBuf;

/// An RGB colour.
pub type Rgb = [u8; 3];

/// Errors of the picture layer.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RenderError {
    /// The picture file could not be written.
    #[error("cannot write {path}: {source}")]
    Io {
        /// The file named.
        path: PathBuf,
        /// The OS's error.
        source: std::io::Error,
    },
    /// The picture could not be encoded as PNG.
    #[error("cannot encode PNG {path}: {source}")]
    Png {
        /// The file named.
        path: PathBuf,
        /// The PNG encoder's error.
        source: png::EncodingError,
    },
    /// A pixel buffer of the wrong length for the picture's size.
    #[error("expected a {expected_width}x{expected_height} RGBA picture ({} bytes), got {got} bytes", expected_width * expected_height * 4)]
    WrongSize {
        /// Width the buffer should have, in pixels.
        expected_width: usize,
        /// Height the buffer should have, in pixels.
        expected_height: usize,
        /// Bytes the buffer has.
        got: usize,
    },
}

/// An RGBA8 picture, row-major, 4 bytes per pixel, alpha always 255.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    /// Width in pixels.
    pub width: usize,
    /// Height in pixels.
    pub height: usize,
    /// RGBA bytes, row by row from the top: `width * height * 4` of them.
    pub pixels: Vec<u8>,
}

impl Frame {
    /// A frame filled with `colour`.
    pub fn new(width: usize, height: usize, colour: Rgb) -> Frame {
        let mut f = Frame {
            width,
            height,
            pixels: vec![0; width * height * 4],
        };
        f.clear(colour);
        f
    }

    /// Wraps RGBA bytes (e.g. the emulator's 256×240 picture).
    pub fn from_rgba(width: usize, height: usize, pixels: Vec<u8>) -> Result<Frame, RenderError> {
        if pixels.len() != width * height * 4 {
            return Err(RenderError::WrongSize {
                expected_width: width,
                expected_height: height,
                got: pixels.len(),
            });
        }
        Ok(Frame {
            width,
            height,
            pixels,
        })
    }

    /// Resizes (if needed) and fills with `colour`, keeping the allocation.
    pub fn reset(&mut self, width: usize, height: usize, colour: Rgb) {
        self.width = width;
        self.height = height;
        self.pixels.resize(width * height * 4, 0);
        self.clear(colour);
    }

    /// Fills the whole frame with `colour`.
    pub fn clear(&mut self, colour: Rgb) {
        for px in self.pixels.chunks_exact_mut(4) {
            px.copy_from_slice(&[colour[0], colour[1], colour[2], 255]);
        }
    }

    /// The RGBA value at (x, y), or `None` off the frame.
    pub fn pixel(&self, x: usize, y: usize) -> Option<[u8; 4]> {
        if x >= self.width || y >= self.height {
            return None;
        }
        let i = (y * self.width + x) * 4;
        Some([
            self.pixels[i],
            self.pixels[i + 1],
            self.pixels[i + 2],
            self.pixels[i + 3],
        ])
    }

    /// The RGB value at (x, y), or `None` off the frame.
    pub fn rgb(&self, x: usize, y: usize) -> Option<Rgb> {
        self.pixel(x, y).map(|p| [p[0], p[1], p[2]])
    }

    /// Fills a rectangle, clipped to the frame.
    pub fn fill_rect(&mut self, x: usize, y: usize, w: usize, h: usize, colour: Rgb) {
        fill_rect_raw(
            &mut self.pixels,
            self.width,
            self.height,
            (x, y, w, h),
            colour,
        );
    }

    /// Draws a `thickness`-pixel outline inside the rectangle, clipped to the frame.
    pub fn outline_rect(&mut self, x: usize, y: usize, w: usize, h: usize, t: usize, c: Rgb) {
        outline_rect_raw(
            &mut self.pixels,
            self.width,
            self.height,
            (x, y, w, h),
            t,
            c,
        );
    }
}

fn fill_rect_raw(px: &mut [u8], fw: usize, fh: usize, r: (usize, usize, usize, usize), c: Rgb) {
    let (x, y, w, h) = r;
    let (x1, y1) = ((x + w).min(fw), (y + h).min(fh));
    for yy in y.min(y1)..y1 {
        for xx in x.min(x1)..x1 {
            let i = (yy * fw + xx) * 4;
            px[i..i + 4].copy_from_slice(&[c[0], c[1], c[2], 255]);
        }
    }
}

pub(super) fn outline_rect_raw(
    px: &mut [u8],
    fw: usize,
    fh: usize,
    (x, y, w, h): (usize, usize, usize, usize),
    t: usize,
    c: Rgb,
) {
    let t = t.min(w).min(h);
    fill_rect_raw(px, fw, fh, (x, y, w, t), c);
    fill_rect_raw(px, fw, fh, (x, y + h - t, w, t), c);
    fill_rect_raw(px, fw, fh, (x, y, t, h), c);
    fill_rect_raw(px, fw, fh, (x + w - t, y, t, h), c);
}
