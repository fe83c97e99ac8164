//! Sound for the window: a bounded sample queue and a linear resampler (always built), and the
//! cpal output stream behind the `audio` cargo feature that plays the cartridge's samples.

use std::collections::VecDeque;

/// Mono samples waiting for the sound device, bounded so latency cannot grow.
///
/// The emulator produces a burst of ~800 samples per frame while the device pulls small
/// blocks on its own clock; the two clocks drift, and a paused or slow producer starves the
/// device. So: when the producer runs ahead, the oldest samples go (latency stays under
/// `capacity`); when it falls behind, the device gets silence, and playback waits until
/// `prime` samples are queued again, so one late frame gives one gap rather than a crackle.
#[derive(Clone, Debug)]
pub struct SampleQueue {
    samples: VecDeque<f32>,
    capacity: usize,
    prime: usize,
    primed: bool,
    dropped: u64,
    underruns: u64,
}

impl SampleQueue {
    /// A queue holding at most `capacity` samples that starts playing once `prime` are queued
    /// (`prime` is clamped to `capacity`).
    pub fn new(capacity: usize, prime: usize) -> SampleQueue {
        let capacity = capacity.max(1);
        SampleQueue {
            samples: VecDeque::with_capacity(capacity),
            capacity,
            prime: prime.min(capacity),
            primed: false,
            dropped: 0,
            underruns: 0,
        }
    }

    /// Appends samples, dropping the oldest ones beyond the capacity.
    pub fn push(&mut self, samples: &[f32]) {
        // Only the newest `capacity` of a too-large push can survive anyway.
        let skip = samples.len().saturating_sub(self.capacity);
        let samples = &samples[skip..];
        let over = (self.samples.len() + samples.len()).saturating_sub(self.capacity);
        self.samples.drain(..over);
        self.samples.extend(samples);
        self.dropped += (skip + over) as u64;
    }

    /// Fills `out` from the front of the queue, silence where there is nothing (yet) to play.
    /// Returns how many real samples were written.
    pub fn fill(&mut self, out: &mut [f32]) -> usize {
        if !self.primed {
            if self.samples.len() < self.prime.max(1) {
                out.fill(0.0);
                return 0;
            }
            self.primed = true;
        }
        let n = out.len().min(self.samples.len());
        for (o, s) in out.iter_mut().zip(self.samples.drain(..n)) {
            *o = s;
        }
        out[n..].fill(0.0);
        if n < out.len() {
            self.primed = false;
            self.underruns += 1;
        }
        n
    }

    /// Drops everything queued (mute now rather than after the queue drains).
    pub fn clear(&mut self) {
        self.samples.clear();
        self.primed = false;
    }

    /// Samples queued.
    pub fn len(&self) -> usize {
        self.samples.len()
    }

    /// True when no sample is queued.
    pub fn is_empty(&self) -> bool {
        self.samples.is_empty()
    }

    /// Samples dropped because the consumer lagged.
    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    /// Times the consumer found too few samples.
    pub fn underruns(&self) -> u64 {
        self.underruns
    }
}

/// Streaming linear-interpolation resampler for mono samples (no filtering: the NES's own
/// output is already low-passed by tetanes, and going 48 kHz → 44.1 kHz barely aliases).
#[derive(Clone, Debug)]
pub struct Resampler {
    /// Input samples per output sample.
    step: f64,
    /// Where the next output falls, in input samples after `prev` (0 ≤ pos < 1 between calls).
    pos: f64,
    /// The last input sample of the previous call; starts at silence.
    prev: f32,
}

impl Resampler {
    /// Converts from `from_hz` to `to_hz` (both positive; non-positive rates act as 1 Hz).
    pub fn new(from_hz: f64, to_hz: f64) -> Resampler {
        let mut r = Resampler {
            step: 1.0,
            pos: 0.0,
            prev: 0.0,
        };
        r.set_rates(from_hz, to_hz);
        r
    }

    /// Changes the rates without a click: the interpolation position carries over.
    pub fn set_rates(&mut self, from_hz: f64, to_hz: f64) {
        self.step = from_hz.max(1.0) / to_hz.max(1.0);
    }

    /// Appends the resampled `input` to `out`; chunking the input does not change the output.
    pub fn process(&mut self, input: &[f32], out: &mut Vec<f32>) {
        out.reserve((input.len() as f64 / self.step) as usize + 1);
        for &x in input {
            while self.pos < 1.0 {
                out.push(self.prev + (x - self.prev) * self.pos as f32);
                self.pos += self.step;
            }
            self.pos -= 1.0;
            self.prev = x;
        }
    }
}

#[cfg(feature = "audio")]
pub use device::{AudioError, AudioOut};

#[cfg(feature = "audio")]
mod device {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

    use cpal::traits::{DeviceTrait, HostTrait, StreamTrait};
    use cpal::{FromSample, SampleFormat, SizedSample, StreamConfig};

    use super::{Resampler, SampleQueue};
    use crate::nes::SAMPLE_RATE;

    /// Latency bound: at most this much sound is queued (seconds).
    const MAX_QUEUED: f64 = 0.15;
    /// Queued before playback starts or resumes after running dry (seconds): a bit over two
    /// frames, so the ~16.7 ms gaps between the emulator's bursts do not starve the device.
    const PRIME: f64 = 0.04;

    /// Why there is no sound. Callers log it once and carry on silently.
    #[derive(Debug, thiserror::Error)]
    #[non_exhaustive]
    pub enum AudioError {
        /// No default sound output device.
        #[error("no default sound output device")]
        NoDevice,
        /// The device's configuration could not be read.
        #[error("cannot read the sound device's configuration: {0}")]
        Config(#[from] cpal::DefaultStreamConfigError),
        /// The device's default sample format is none of f32, i16 and u16.
        #[error("unsupported sample format {0}")]
        Format(SampleFormat),
        /// The output stream could not be built.
        #[error("cannot open a sound stream: {0}")]
        Build(#[from] cpal::BuildStreamError),
        /// The output stream could not be started.
        #[error("cannot start the sound stream: {0}")]
        Play(#[from] cpal::PlayStreamError),
    }

    /// The default sound device, playing mono samples pushed at [`SAMPLE_RATE`] Hz.
    pub struct AudioOut {
        queue: Arc<Mutex<SampleQueue>>,
        resampler: Resampler,
        scratch: Vec<f32>,
        rate: u32,
        channels: u16,
        // Dropping the stream stops the device; kept for its lifetime.
        _stream: cpal::Stream,
    }

    impl std::fmt::Debug for AudioOut {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.debug_struct("AudioOut")
                .field("rate", &self.rate)
                .field("channels", &self.channels)
                .finish_non_exhaustive()
        }
    }

    /// The queue even if a panicking thread poisoned it: samples are plain data.
    fn lock(queue: &Mutex<SampleQueue>) -> MutexGuard<'_, SampleQueue> {
        queue.lock().unwrap_or_else(PoisonError::into_inner)
    }

    impl AudioOut {
        /// Opens the default output device in its default configuration (f32, i16 or u16
        /// samples, any channel count: the mono sound goes to every channel).
        pub fn open() -> Result<AudioOut, AudioError> {
            let _quiet = alsa_quiet::Quiet::new();
            let host = cpal::default_host();
            let device = host.default_output_device().ok_or(AudioError::NoDevice)?;
            let supported = device.default_output_config()?;
            let format = supported.sample_format();
            let config = supported.config();
            let rate = config.sample_rate.0;
            let queue = Arc::new(Mutex::new(SampleQueue::new(
                (f64::from(rate) * MAX_QUEUED) as usize,
                (f64::from(rate) * PRIME) as usize,
            )));
            let stream = match format {
                SampleFormat::F32 => build::<f32>(&device, &config, &queue)?,
                SampleFormat::I16 => build::<i16>(&device, &config, &queue)?,
                SampleFormat::U16 => build::<u16>(&device, &config, &queue)?,
                other => return Err(AudioError::Format(other)),
            };
            stream.play()?;
            log::info!(
                "sound: {} Hz, {} channel(s), {format}",
                rate,
                config.channels
            );
            Ok(AudioOut {
                queue,
                resampler: Resampler::new(f64::from(SAMPLE_RATE), f64::from(rate)),
                scratch: Vec::new(),
                rate,
                channels: config.channels,
                _stream: stream,
            })
        }

        /// Queues one frame's samples. `speed` is the playback speed: faster or slower play
        /// shifts the pitch like a tape, which keeps the queue neither starved nor overflowing.
        pub fn push(&mut self, samples: &[f32], speed: f64) {
            self.resampler
                .set_rates(f64::from(SAMPLE_RATE) * speed, f64::from(self.rate));
            self.scratch.clear();
            self.resampler.process(samples, &mut self.scratch);
            lock(&self.queue).push(&self.scratch);
        }

        /// Silence at once (pause, fast-forward).
        pub fn clear(&mut self) {
            lock(&self.queue).clear();
        }

        /// The device's sample rate in Hz.
        pub fn rate(&self) -> u32 {
            self.rate
        }
    }

    impl Drop for AudioOut {
        fn drop(&mut self) {
            // Dropped and missing samples tell whether the queue bounds suit the device.
            let q = lock(&self.queue);
            log::debug!(
                "sound: {} samples dropped, {} underruns",
                q.dropped(),
                q.underruns()
            );
        }
    }

    fn build<T>(
        device: &cpal::Device,
        config: &StreamConfig,
        queue: &Arc<Mutex<SampleQueue>>,
    ) -> Result<cpal::Stream, cpal::BuildStreamError>
    where
        T: SizedSample + FromSample<f32>,
    {
        let channels = usize::from(config.channels.max(1));
        let queue = Arc::clone(queue);
        let mut mono = Vec::new();
        let warned = AtomicBool::new(false);
        device.build_output_stream(
            config,
            move |data: &mut [T], _| {
                mono.resize(data.len() / channels, 0.0);
                lock(&queue).fill(&mut mono);
                for (frame, &s) in data.chunks_mut(channels).zip(&mono) {
                    frame.fill(T::from_sample(s.clamp(-1.0, 1.0)));
                }
            },
            // Stream errors (a lost device, xruns) can repeat every period: say so once.
            move |e| {
                if !warned.swap(true, Ordering::Relaxed) {
                    log::warn!("sound stream error: {e}");
                }
            },
            None,
        )
    }

    /// ALSA prints "ALSA lib …" lines to stderr while probing when there is no sound card.
    /// Its thread-local error hook (alsa-lib ≥ 1.1.6) swallows them while the device opens.
    #[cfg(target_os = "linux")]
    mod alsa_quiet {
        use std::os::raw::{c_char, c_int};

        /// Restores the previous hook when dropped.
        pub struct Quiet(alsa_sys::snd_local_error_handler_t);

        unsafe extern "C" fn ignore(
            _file: *const c_char,
            _line: c_int,
            _func: *const c_char,
            _err: c_int,
            _fmt: *const c_char,
            _args: *mut alsa_sys::__va_list_tag,
        ) {
        }

        impl Quiet {
            pub fn new() -> Quiet {
                // SAFETY: installs a hook that reads none of its arguments, on this thread only.
                Quiet(unsafe { alsa_sys::snd_lib_error_set_local(Some(ignore)) })
            }
        }

        impl Drop for Quiet {
            fn drop(&mut self) {
                // SAFETY: puts back the hook that was there (normally none).
                unsafe {
                    alsa_sys::snd_lib_error_set_local(self.0);
                }
            }
        }
    }

    #[cfg(not(target_os = "linux"))]
    mod alsa_quiet {
        pub struct Quiet;

        impl Quiet {
            pub fn new() -> Quiet {
                Quiet
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queue_plays_in_order_once_primed() {
        let mut q = SampleQueue::new(10, 3);
        let mut out = [9.0; 4];
        q.push(&[0.1, 0.2]);
        assert_eq!(q.fill(&mut out), 0, "not primed yet");
        assert_eq!(out, [0.0; 4]);
        q.push(&[0.3]);
        assert_eq!(q.fill(&mut out[..2]), 2);
        assert_eq!(out[..2], [0.1, 0.2]);
        assert_eq!(q.len(), 1);
    }

    #[test]
    fn queue_drops_the_oldest_when_the_consumer_lags() {
        let mut q = SampleQueue::new(4, 1);
        q.push(&[1.0, 2.0, 3.0]);
        q.push(&[4.0, 5.0, 6.0]);
        assert_eq!(q.len(), 4);
        assert_eq!(q.dropped(), 2);
        // A push bigger than the whole queue keeps its newest samples.
        q.push(&[7.0, 8.0, 9.0, 10.0, 11.0, 12.0]);
        let mut out = [0.0; 4];
        assert_eq!(q.fill(&mut out), 4);
        assert_eq!(out, [9.0, 10.0, 11.0, 12.0]);
        assert_eq!(q.dropped(), 8);
    }

    #[test]
    fn queue_underrun_gives_silence_and_waits_to_reprime() {
        let mut q = SampleQueue::new(100, 4);
        q.push(&[0.5; 5]);
        let mut out = [1.0; 8];
        assert_eq!(q.fill(&mut out), 5);
        assert_eq!(out, [0.5, 0.5, 0.5, 0.5, 0.5, 0.0, 0.0, 0.0]);
        assert_eq!(q.underruns(), 1);
        q.push(&[0.25; 2]);
        assert_eq!(
            q.fill(&mut out),
            0,
            "below the prime level after running dry"
        );
        q.push(&[0.25; 2]);
        assert_eq!(q.fill(&mut out[..4]), 4);
        assert_eq!(out[..4], [0.25; 4]);
    }

    #[test]
    fn queue_clear_mutes_at_once() {
        let mut q = SampleQueue::new(100, 1);
        q.push(&[0.5; 50]);
        q.clear();
        assert!(q.is_empty());
        let mut out = [1.0; 3];
        assert_eq!(q.fill(&mut out), 0);
        assert_eq!(out, [0.0; 3]);
    }

    #[test]
    fn resampler_keeps_the_rate_ratio() {
        for (from, to) in [
            (48_000.0, 44_100.0),
            (48_000.0, 48_000.0),
            (48_000.0, 96_000.0),
        ] {
            let mut r = Resampler::new(from, to);
            let mut out = Vec::new();
            r.process(&vec![0.0; 48_000], &mut out);
            let want = to * 48_000.0 / from;
            assert!(
                (out.len() as f64 - want).abs() <= 1.0,
                "{from}->{to}: {}",
                out.len()
            );
        }
    }

    #[test]
    fn resampler_at_equal_rates_is_a_one_sample_delay() {
        let mut r = Resampler::new(48_000.0, 48_000.0);
        let mut out = Vec::new();
        r.process(&[0.1, 0.2, 0.3], &mut out);
        assert_eq!(out, [0.0, 0.1, 0.2]);
    }

    #[test]
    fn resampler_interpolates_a_ramp_exactly_and_ignores_chunking() {
        let input: Vec<f32> = (0..1000).map(|i| i as f32 / 1000.0).collect();
        let mut whole = Vec::new();
        Resampler::new(48_000.0, 44_100.0).process(&input, &mut whole);
        let mut chunked = Vec::new();
        let mut r = Resampler::new(48_000.0, 44_100.0);
        for c in input.chunks(37) {
            r.process(c, &mut chunked);
        }
        assert_eq!(whole, chunked);
        // Output k sits at input position k·step − 1 (one sample late, starting from silence).
        let step = 48_000.0 / 44_100.0;
        for (k, &y) in whole.iter().enumerate().skip(2) {
            let want = (k as f64 * step - 1.0) / 1000.0;
            assert!(
                (f64::from(y) - want).abs() < 1e-4,
                "sample {k}: {y} vs {want}"
            );
        }
    }
}
