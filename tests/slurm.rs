//! `deploy/slurm/` on a real one-node Slurm cluster: a 4-task `sim` array merged, and a `tune`
//! chain of jobs, equal the single-machine runs. Needs root and Slurm (or apt); else
//! it says why it is skipped. The daemons it starts are stopped by pid at the end.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

mod common;

/// Marks a slurm.conf this test wrote, so it never touches a configuration it did not write.
const MARK: &str = "# written by nestor's tests/slurm.rs";
const CONF: &str = "/etc/slurm/slurm.conf";
/// Pid files of the daemons, in the order they are stopped.
const PID_FILES: [(&str, &str); 3] = [
    ("/run/slurmd.pid", "slurmd"),
    ("/run/slurmctld.pid", "slurmctld"),
    ("/run/munge/munged.pid", "munged"),
];

/// Runs a shell command; its stdout, or why it failed (with stderr).
fn sh(script: &str) -> Result<String, String> {
    let out = Command::new("sh")
        .args(["-c", script])
        .output()
        .map_err(|e| format!("sh: {e}"))?;
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    } else {
        Err(format!(
            "`{script}` failed ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}

fn have(tool: &str) -> bool {
    sh(&format!("command -v {tool}")).is_ok()
}

/// Stops the daemons named in the pid files (only if the pid is still that daemon: a stale
/// file may name another process) and waits until each has gone.
fn stop_daemons() {
    for (file, name) in PID_FILES {
        let Ok(text) = std::fs::read_to_string(file) else {
            continue;
        };
        let Ok(pid) = text.trim().parse::<i32>() else {
            continue;
        };
        let comm = sh(&format!("ps -o comm= -p {pid}")).unwrap_or_default();
        if comm.trim() != name {
            continue;
        }
        // SAFETY: kill(2) with a pid checked just above to be the daemon.
        unsafe {
            libc::kill(pid, libc::SIGTERM);
        }
        let started = Instant::now();
        // SAFETY: signal 0 only checks the process exists.
        while unsafe { libc::kill(pid, 0) } == 0 && started.elapsed() < Duration::from_secs(20) {
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

/// Stops the cluster when the test ends, passed or failed.
struct Cluster;

impl Drop for Cluster {
    fn drop(&mut self) {
        stop_daemons();
    }
}

/// Brings up munge, slurmctld and slurmd as `/work/shared/cluster-notes.md` describes, or
/// says why it cannot.
fn start_cluster() -> Result<Cluster, String> {
    if !cfg!(target_os = "linux") {
        return Err("not Linux".into());
    }
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        return Err("not root (the daemons need it)".into());
    }
    if let Ok(conf) = std::fs::read_to_string(CONF) {
        if !conf.contains(MARK) {
            return Err(format!(
                "{CONF} exists and is not this test's: a real cluster is configured here"
            ));
        }
    }
    if !(have("sbatch") && have("slurmctld") && have("munged")) {
        if !have("apt-get") {
            return Err("Slurm is not installed and there is no apt-get".into());
        }
        eprintln!("slurm test: installing slurm-wlm and munge with apt-get");
        sh(
            "timeout 300 apt-get update -qq && DEBIAN_FRONTEND=noninteractive timeout 600 \
            apt-get install -y -qq slurm-wlm munge >/dev/null",
        )
        .map_err(|e| format!("cannot install Slurm: {e}"))?;
    }
    // Leftovers of an aborted run would make the daemons refuse to start.
    stop_daemons();
    let cluster = Cluster;
    sh("mkdir -p /run/munge && chown munge:munge /run/munge && runuser -u munge -- munged")?;
    sh("munge -n | unmunge | grep -q 'Success'")?;
    let host = sh("hostname -s")?.trim().to_string();
    let cpus = sh("nproc")?.trim().to_string();
    sh("mkdir -p /etc/slurm /var/spool/slurmctld /var/spool/slurmd /var/log/slurm")?;
    let conf = format!(
        "{MARK}\n\
         ClusterName=nestortest\n\
         SlurmctldHost={host}(127.0.0.1)\n\
         ProctrackType=proctrack/linuxproc\n\
         SelectType=select/cons_tres\n\
         SelectTypeParameters=CR_Core\n\
         ReturnToService=2\n\
         SlurmctldPidFile=/run/slurmctld.pid\n\
         SlurmdPidFile=/run/slurmd.pid\n\
         StateSaveLocation=/var/spool/slurmctld\n\
         SlurmdSpoolDir=/var/spool/slurmd\n\
         SlurmctldLogFile=/var/log/slurm/slurmctld.log\n\
         SlurmdLogFile=/var/log/slurm/slurmd.log\n\
         NodeName={host} NodeAddr=127.0.0.1 CPUs={cpus} State=UNKNOWN\n\
         PartitionName=debug Nodes={host} Default=YES MaxTime=INFINITE State=UP\n"
    );
    std::fs::write(CONF, conf).map_err(|e| format!("cannot write {CONF}: {e}"))?;
    // A cluster name left by another configuration makes slurmctld refuse to start.
    let _ = std::fs::remove_file("/var/spool/slurmctld/clustername");
    sh("slurmctld -c && slurmd")?;
    let started = Instant::now();
    loop {
        let state = sh("sinfo -h -o %T").unwrap_or_default();
        if state.trim() == "idle" {
            return Ok(cluster);
        }
        if started.elapsed() > Duration::from_secs(30) {
            let log = sh("tail -5 /var/log/slurm/slurmctld.log /var/log/slurm/slurmd.log")
                .unwrap_or_default();
            return Err(format!("the node is `{}` after 30 s:\n{log}", state.trim()));
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

fn run_nestor(args: &[&str], dir: &Path) -> serde_json::Value {
    serde_json::from_str(&common::ok(&common::nestor_in(args, dir))).expect("JSON")
}

#[test]
fn sim_and_tune_jobs_give_what_one_machine_gives() {
    let cluster = match start_cluster() {
        Ok(c) => c,
        Err(why) => {
            eprintln!("skipped: no one-node Slurm cluster here: {why}");
            return;
        }
    };
    let tmp = common::temp_dir("slurm");
    let dir = tmp.path().to_path_buf();
    let sim_args = "--games 8 --pieces 25 --seed 4";
    let script: PathBuf =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("deploy/slurm/sim-task.sbatch");
    let submit = format!(
        "cd {dir} && timeout 300 sbatch --wait --array=0-3 --output={dir}/task-%a.log \
         --export=ALL,NESTOR={nestor},PARTS={dir},SIM_ARGS='{sim_args}' {script}",
        dir = dir.display(),
        nestor = env!("CARGO_BIN_EXE_nestor"),
        script = script.display(),
    );
    if let Err(e) = sh(&submit) {
        let logs = sh(&format!("cat {}/task-*.log", dir.display())).unwrap_or_default();
        panic!("{e}\ntask logs:\n{logs}");
    }
    let parts: Vec<String> = (0..4)
        .map(|i| dir.join(format!("part-{i}.json")).display().to_string())
        .collect();
    let mut merge = vec!["sim", "merge", "--json"];
    merge.extend(parts.iter().map(String::as_str));
    let merged = run_nestor(&merge, &dir);
    let mut single = vec!["sim", "--json"];
    single.extend(sim_args.split(' '));
    let single = run_nestor(&single, &dir);
    assert_eq!(merged["summary"], single["summary"]);
    assert_eq!(merged["games"], single["games"]);

    // A whole tuning run as a chain of array and gather jobs ends with the weights of the
    // same run on this machine.
    let tune = common::small_tune("15");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("deploy/slurm/tune.sh");
    let run = dir.join("run");
    sh(&format!(
        "cd {dir} && NESTOR={nestor} sh {script} 3 {run} {args}",
        dir = dir.display(),
        nestor = env!("CARGO_BIN_EXE_nestor"),
        script = script.display(),
        run = run.display(),
        args = tune.join(" "),
    ))
    .unwrap_or_else(|e| panic!("{e}"));
    let result = run.join("tuned.toml");
    let started = Instant::now();
    while !result.exists() {
        if started.elapsed() > Duration::from_secs(240)
            || sh("squeue -h").is_ok_and(|q| q.trim().is_empty())
        {
            std::thread::sleep(Duration::from_millis(500));
            let logs = sh(&format!("tail -n 3 {}/logs/*.log", run.display())).unwrap_or_default();
            assert!(
                result.exists(),
                "no {} from the Slurm jobs:\n{logs}",
                result.display()
            );
        }
        std::thread::sleep(Duration::from_millis(500));
    }
    let mut here = vec!["tune", "--state", "here.json", "--out", "here.toml"];
    here.extend(tune);
    common::ok(&common::nestor_in(&here, &dir));
    let weights = |p: &Path| -> Vec<String> {
        std::fs::read_to_string(p)
            .expect("tuned weights")
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(weights(&result), weights(&dir.join("here.toml")));
    drop(cluster);
}
