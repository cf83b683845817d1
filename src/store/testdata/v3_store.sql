-- A store written by tare at schema version 3 (commit d0245d0: `tare run --samples 2 --commit 0123…4567
-- --branch main --tag pr=42 --no-git -- /bin/true`, then `tare run --samples 1 --warmup 0 --no-git --tag pr=43
-- -- /bin/echo hi`), dumped with Python's sqlite3 iterdump; store_test migrates it to the current version.
BEGIN TRANSACTION;
CREATE TABLE ab_cells (
  run_id INTEGER NOT NULL REFERENCES runs(id),
  cell INTEGER NOT NULL,
  name TEXT NOT NULL,
  role TEXT NOT NULL,
  benchmark_id INTEGER NOT NULL REFERENCES benchmarks(id),
  params TEXT NOT NULL,
  PRIMARY KEY (run_id, cell)
);
CREATE TABLE ab_checks (
  run_id INTEGER NOT NULL REFERENCES runs(id),
  kind TEXT NOT NULL,
  rule TEXT NOT NULL,
  cell TEXT NOT NULL,
  arm TEXT NOT NULL,
  value REAL,
  limit_value REAL,
  ok INTEGER NOT NULL,
  PRIMARY KEY (run_id, kind, rule, cell, arm)
);
CREATE TABLE ab_cohorts (
  run_id INTEGER PRIMARY KEY REFERENCES runs(id),
  campaign_sha256 TEXT NOT NULL,
  campaign_name TEXT NOT NULL,
  campaign_source TEXT NOT NULL,
  campaign_text TEXT NOT NULL,
  spec TEXT NOT NULL,
  lock TEXT NOT NULL,
  lock_sha256 TEXT NOT NULL,
  cohort INTEGER NOT NULL,
  state TEXT NOT NULL,
  stop_reason TEXT NOT NULL,
  outcome TEXT NOT NULL,
  resumed INTEGER NOT NULL
);
CREATE TABLE ab_discarded_samples (
  sample_id INTEGER PRIMARY KEY REFERENCES samples(id),
  run_id INTEGER NOT NULL REFERENCES runs(id),
  reason TEXT NOT NULL
);
CREATE TABLE ab_verdicts (
  run_id INTEGER NOT NULL REFERENCES runs(id),
  cell INTEGER NOT NULL,
  head TEXT NOT NULL,
  metric TEXT NOT NULL,
  look INTEGER NOT NULL,
  final INTEGER NOT NULL,
  pairs INTEGER NOT NULL,
  confidence REAL NOT NULL,
  estimate REAL,
  lo REAL,
  hi REAL,
  base_median REAL,
  head_median REAL,
  allowance TEXT NOT NULL,
  delta REAL,
  noise_floor REAL,
  null_estimate REAL,
  null_lo REAL,
  null_hi REAL,
  host_too_noisy INTEGER NOT NULL,
  verdict TEXT NOT NULL,
  supported_gain INTEGER NOT NULL,
  reasons TEXT NOT NULL,
  PRIMARY KEY (run_id, cell, head, metric, look)
);
CREATE TABLE artifacts (
  run_id INTEGER NOT NULL REFERENCES runs(id),
  benchmark_id INTEGER NOT NULL,
  name TEXT NOT NULL,
  content BLOB NOT NULL,
  PRIMARY KEY (run_id, benchmark_id, name)
);
CREATE TABLE benchmarks (
  id INTEGER PRIMARY KEY,
  run_id INTEGER NOT NULL REFERENCES runs(id),
  uri TEXT NOT NULL,
  name TEXT NOT NULL,
  kind TEXT NOT NULL,
  UNIQUE (run_id, uri)
);
INSERT INTO "benchmarks" VALUES(1,1,'true::/bin/true','/bin/true','command');
INSERT INTO "benchmarks" VALUES(2,2,'echo::/bin/echo hi','/bin/echo hi','command');
CREATE TABLE executables (
  run_id INTEGER NOT NULL REFERENCES runs(id),
  role TEXT NOT NULL,
  path TEXT NOT NULL,
  sha256 TEXT NOT NULL,
  info TEXT NOT NULL,
  PRIMARY KEY (run_id, role, path)
);
INSERT INTO "executables" VALUES(1,'target','/bin/true','c79bf44242829108e323378531f4ac839513ca1fba45efd6583643526e1e9fd2','{"build_id":"c89156ebdabf859f4ee70cb0c303004dccf1ae51","compilers":[],"elf_error":"","elf_type":"position-independent executable","has_debug_info":false,"interpreter":"/lib64/ld-linux-x86-64.so.2","is_elf":true,"machine":"x86-64","needed":["libc.so.6"],"path":"/bin/true","runpath":[],"sha256":"c79bf44242829108e323378531f4ac839513ca1fba45efd6583643526e1e9fd2","size_bytes":35664,"stripped":true}');
INSERT INTO "executables" VALUES(2,'target','/bin/echo','a049fb47554c6cde2ee452e5d87f6386abb63af7cdcae9cd0dc99fc80e0bcf35','{"build_id":"a18e44e70d0bf293fabf3685eb1b75bd89fa6663","compilers":[],"elf_error":"","elf_type":"position-independent executable","has_debug_info":false,"interpreter":"/lib64/ld-linux-x86-64.so.2","is_elf":true,"machine":"x86-64","needed":["libc.so.6"],"path":"/bin/echo","runpath":[],"sha256":"a049fb47554c6cde2ee452e5d87f6386abb63af7cdcae9cd0dc99fc80e0bcf35","size_bytes":43856,"stripped":true}');
CREATE TABLE metrics (
  run_id INTEGER NOT NULL REFERENCES runs(id),
  name TEXT NOT NULL,
  unit TEXT NOT NULL,
  direction TEXT NOT NULL,
  kind TEXT NOT NULL,
  description TEXT NOT NULL,
  PRIMARY KEY (run_id, name)
);
INSERT INTO "metrics" VALUES(1,'involuntary_ctx_switches','count','lower','count','involuntary context switches (wait4)');
INSERT INTO "metrics" VALUES(1,'major_faults','count','lower','count','major page faults (wait4)');
INSERT INTO "metrics" VALUES(1,'minor_faults','count','lower','count','minor page faults (wait4)');
INSERT INTO "metrics" VALUES(1,'peak_rss_bytes','bytes','lower','bytes','peak resident set of that child alone');
INSERT INTO "metrics" VALUES(1,'perf.context_switches','count','lower','count','perf context-switches');
INSERT INTO "metrics" VALUES(1,'perf.cpu_migrations','count','lower','count','perf cpu-migrations');
INSERT INTO "metrics" VALUES(1,'perf.page_faults','count','lower','count','perf page-faults');
INSERT INTO "metrics" VALUES(1,'perf.task_clock_ns','ns','lower','time','perf task-clock');
INSERT INTO "metrics" VALUES(1,'sys_ns','ns','lower','time','system CPU time of the process (wait4)');
INSERT INTO "metrics" VALUES(1,'user_ns','ns','lower','time','user CPU time of the process (wait4)');
INSERT INTO "metrics" VALUES(1,'voluntary_ctx_switches','count','lower','count','voluntary context switches (wait4)');
INSERT INTO "metrics" VALUES(1,'wall_ns','ns','lower','time','wall time of the whole process, spawn to exit');
INSERT INTO "metrics" VALUES(2,'involuntary_ctx_switches','count','lower','count','involuntary context switches (wait4)');
INSERT INTO "metrics" VALUES(2,'major_faults','count','lower','count','major page faults (wait4)');
INSERT INTO "metrics" VALUES(2,'minor_faults','count','lower','count','minor page faults (wait4)');
INSERT INTO "metrics" VALUES(2,'peak_rss_bytes','bytes','lower','bytes','peak resident set of that child alone');
INSERT INTO "metrics" VALUES(2,'perf.context_switches','count','lower','count','perf context-switches');
INSERT INTO "metrics" VALUES(2,'perf.cpu_migrations','count','lower','count','perf cpu-migrations');
INSERT INTO "metrics" VALUES(2,'perf.page_faults','count','lower','count','perf page-faults');
INSERT INTO "metrics" VALUES(2,'perf.task_clock_ns','ns','lower','time','perf task-clock');
INSERT INTO "metrics" VALUES(2,'sys_ns','ns','lower','time','system CPU time of the process (wait4)');
INSERT INTO "metrics" VALUES(2,'user_ns','ns','lower','time','user CPU time of the process (wait4)');
INSERT INTO "metrics" VALUES(2,'voluntary_ctx_switches','count','lower','count','voluntary context switches (wait4)');
INSERT INTO "metrics" VALUES(2,'wall_ns','ns','lower','time','wall time of the whole process, spawn to exit');
CREATE TABLE notes (
  run_id INTEGER NOT NULL REFERENCES runs(id),
  level TEXT NOT NULL,
  message TEXT NOT NULL,
  PRIMARY KEY (run_id, message)
);
INSERT INTO "notes" VALUES(1,'info','instructions: hardware counters are not supported on this host (perf_event_open: ENOENT; common on VMs); use --instrument sim for exact instruction counts');
INSERT INTO "notes" VALUES(1,'info','cycles: hardware counters are not supported on this host (perf_event_open: ENOENT; common on VMs); use --instrument sim for exact instruction counts');
INSERT INTO "notes" VALUES(1,'info','branches: hardware counters are not supported on this host (perf_event_open: ENOENT; common on VMs); use --instrument sim for exact instruction counts');
INSERT INTO "notes" VALUES(1,'info','branch-misses: hardware counters are not supported on this host (perf_event_open: ENOENT; common on VMs); use --instrument sim for exact instruction counts');
INSERT INTO "notes" VALUES(2,'info','instructions: hardware counters are not supported on this host (perf_event_open: ENOENT; common on VMs); use --instrument sim for exact instruction counts');
INSERT INTO "notes" VALUES(2,'info','cycles: hardware counters are not supported on this host (perf_event_open: ENOENT; common on VMs); use --instrument sim for exact instruction counts');
INSERT INTO "notes" VALUES(2,'info','branches: hardware counters are not supported on this host (perf_event_open: ENOENT; common on VMs); use --instrument sim for exact instruction counts');
INSERT INTO "notes" VALUES(2,'info','branch-misses: hardware counters are not supported on this host (perf_event_open: ENOENT; common on VMs); use --instrument sim for exact instruction counts');
CREATE TABLE run_tags (
  run_id INTEGER NOT NULL REFERENCES runs(id),
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY (run_id, key)
);
INSERT INTO "run_tags" VALUES(1,'pr','42');
INSERT INTO "run_tags" VALUES(2,'pr','43');
CREATE TABLE runs (
  id INTEGER PRIMARY KEY,
  kind TEXT NOT NULL,
  status TEXT NOT NULL,
  started_unix_ns INTEGER NOT NULL,
  ended_unix_ns INTEGER,
  tare_version TEXT NOT NULL,
  command_line TEXT NOT NULL,
  options TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  fingerprint_digest TEXT NOT NULL
, git_commit TEXT NOT NULL DEFAULT '', git_branch TEXT NOT NULL DEFAULT '', git_dirty INTEGER);
INSERT INTO "runs" VALUES(1,'run','complete',1796139694808687809,1796139694847102722,'0.1.0','["./tare-v3","run","--store","v3.db","--samples","2","--commit","0123456789abcdef0123456789abcdef01234567","--branch","main","--tag","pr=42","--no-git","--","/bin/true"]','{"argv":["/bin/true"],"cwd":"","env_overrides":[],"filter":"","instrument":"wall","kind":"command","order":"round-robin-v1","samples":2,"shell":false,"timeout_ns":600000000000,"warmup":1}','{"checks":[{"finding":"no cpufreq governor is exposed (no /sys/devices/system/cpu/cpu*/cpufreq; usual in VMs): the clock is the hypervisor''s or firmware''s to set","fix":"nothing to set here; on bare metal load a cpufreq driver, then sudo cpupower frequency-set -g performance","level":"info","name":"governor"},{"finding":"no turbo switch is exposed (neither intel_pstate/no_turbo nor cpufreq/boost; usual in VMs): boost is the hypervisor''s or firmware''s to decide","fix":"nothing to set here; on bare metal without either switch, disable turbo/boost in the firmware setup","level":"info","name":"turbo"},{"finding":"ASLR is on (randomize_va_space = 2): stack, heap and library addresses change every run, which moves alignment and cache-set use between samples; tare turns it off per child for --instrument sim, other instruments measure with it on","fix":"per command: setarch -R <command> (what sim does); system-wide: sudo sysctl kernel.randomize_va_space=0 (weakens security; restore with =2)","level":"info","name":"aslr"},{"finding":"1-minute load average 2.78 is above 0.2 (0.1 x 2 CPUs): other work competes with the benchmark for CPU time and caches; running now: cc1plus (pid 8126), cc1plus (pid 8170)","fix":"wait for it to finish or stop it (top -o %CPU shows what is busy), then measure","level":"warn","name":"load"},{"finding":"running in a virtual machine (the cpuinfo ''hypervisor'' flag): steal time, shared caches and other tenants make timings noisier than on bare metal","fix":"take more samples and compare only runs from the same host type; prefer --instrument sim, whose instruction counts do not depend on the host''s timing","level":"warn","name":"virtualized"},{"finding":"only 2 CPUs usable (2 online): tare, the benchmark and the system compete for them, so timings pick up tare''s own work","fix":"measure on a machine with at least 4 CPUs, or keep the others idle and pin the benchmark to one CPU (taskset -c <cpu> tare ...)","level":"warn","name":"cpus"},{"finding":"perf_event_paranoid = 2: without CAP_PERFMON only user-space events can be counted; hardware counters that include kernel time need <= 1","fix":"sudo sysctl kernel.perf_event_paranoid=1 (persist in /etc/sysctl.d/), or grant CAP_PERFMON: sudo setcap cap_perfmon+ep \"$(command -v tare)\"","level":"warn","name":"perf_event_paranoid"},{"finding":"no CPU quota on this process''s cgroup or its parents","fix":"","level":"ok","name":"cgroup"},{"finding":"no CPUs are isolated: the scheduler may put other tasks and interrupts on the benchmark''s CPU","fix":"for the quietest runs boot with isolcpus=<cpus> nohz_full=<cpus> rcu_nocbs=<cpus> and pin runs there with taskset -c <cpus>","level":"info","name":"isolation"},{"finding":"SMT is off: no sibling hyperthreads","fix":"","level":"ok","name":"smt"}],"hard_digest":"833419e86e542e2870de6c75274835ecfc664933a615582e5a6f8bfaebe87f20","keys":[{"hard":true,"key":"cpu.vendor","value":"AuthenticAMD"},{"hard":true,"key":"cpu.model_name","value":"AMD EPYC"},{"hard":true,"key":"cpu.family","value":"26"},{"hard":true,"key":"cpu.model","value":"2"},{"hard":true,"key":"cpu.stepping","value":"1"},{"hard":true,"key":"cpu.microcode","value":"unknown"},{"hard":true,"key":"cpu.flags_sha256","value":"720c146e15a5744c759e3cf6fb13fa7189ce265d67394dd2b4e0a8cfa3ca0aef"},{"hard":true,"key":"cpu.logical","value":"2"},{"hard":true,"key":"cpu.cores","value":"2"},{"hard":true,"key":"cpu.caches","value":"unknown"},{"hard":false,"key":"cpu.governor","value":"unknown"},{"hard":false,"key":"cpu.turbo","value":"unknown"},{"hard":false,"key":"cpu.smt","value":"off"},{"hard":false,"key":"cpu.isolated","value":"none"},{"hard":false,"key":"cpu.nohz_full","value":"none"},{"hard":false,"key":"cpu.allowed","value":"0-1"},{"hard":true,"key":"os.kernel","value":"6.18.44-fc-v1045"},{"hard":false,"key":"os.release","value":"Debian GNU/Linux 12 (bookworm)"},{"hard":false,"key":"os.mitigations_sha256","value":"9e606d54cd26120a1b77ce109ceaf5be9da679e41ff7e1dc7be1835cc8de1f06"},{"hard":false,"key":"os.aslr","value":"2"},{"hard":false,"key":"os.perf_event_paranoid","value":"2"},{"hard":false,"key":"os.loadavg","value":"2.78 2.14 2.04"},{"hard":false,"key":"mem.total_bytes","value":"25275953152"},{"hard":false,"key":"mem.available_bytes","value":"24344510464"},{"hard":false,"key":"cgroup.cpu_limit","value":"none"},{"hard":true,"key":"host.hypervisor","value":"present"},{"hard":false,"key":"host.product","value":"unknown"},{"hard":true,"key":"libc.version","value":"2.36"},{"hard":false,"key":"libc.path","value":"/usr/lib/x86_64-linux-gnu/libc.so.6"},{"hard":true,"key":"libc.sha256","value":"6b4a45352fd0c540a9c7c718f35ce8c8e46a4e482f9d3885a910c32d1a0e1421"},{"hard":false,"key":"loader.path","value":"/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2"},{"hard":true,"key":"loader.sha256","value":"02bcda52c1a5dfc236f94d9e5255b4a0e26347d8a372a5223b650e31f291ce3c"},{"hard":true,"key":"env.allocator","value":"none"}],"schema":"tare.fingerprint/1"}','833419e86e542e2870de6c75274835ecfc664933a615582e5a6f8bfaebe87f20','0123456789abcdef0123456789abcdef01234567','main',NULL);
INSERT INTO "runs" VALUES(2,'run','complete',1796139694938949213,1796139694966079795,'0.1.0','["./tare-v3","run","--store","v3.db","--samples","1","--warmup","0","--no-git","--tag","pr=43","--","/bin/echo","hi"]','{"argv":["/bin/echo","hi"],"cwd":"","env_overrides":[],"filter":"","instrument":"wall","kind":"command","order":"round-robin-v1","samples":1,"shell":false,"timeout_ns":600000000000,"warmup":0}','{"checks":[{"finding":"no cpufreq governor is exposed (no /sys/devices/system/cpu/cpu*/cpufreq; usual in VMs): the clock is the hypervisor''s or firmware''s to set","fix":"nothing to set here; on bare metal load a cpufreq driver, then sudo cpupower frequency-set -g performance","level":"info","name":"governor"},{"finding":"no turbo switch is exposed (neither intel_pstate/no_turbo nor cpufreq/boost; usual in VMs): boost is the hypervisor''s or firmware''s to decide","fix":"nothing to set here; on bare metal without either switch, disable turbo/boost in the firmware setup","level":"info","name":"turbo"},{"finding":"ASLR is on (randomize_va_space = 2): stack, heap and library addresses change every run, which moves alignment and cache-set use between samples; tare turns it off per child for --instrument sim, other instruments measure with it on","fix":"per command: setarch -R <command> (what sim does); system-wide: sudo sysctl kernel.randomize_va_space=0 (weakens security; restore with =2)","level":"info","name":"aslr"},{"finding":"1-minute load average 2.78 is above 0.2 (0.1 x 2 CPUs): other work competes with the benchmark for CPU time and caches; running now: cc1plus (pid 8126), cc1plus (pid 8170)","fix":"wait for it to finish or stop it (top -o %CPU shows what is busy), then measure","level":"warn","name":"load"},{"finding":"running in a virtual machine (the cpuinfo ''hypervisor'' flag): steal time, shared caches and other tenants make timings noisier than on bare metal","fix":"take more samples and compare only runs from the same host type; prefer --instrument sim, whose instruction counts do not depend on the host''s timing","level":"warn","name":"virtualized"},{"finding":"only 2 CPUs usable (2 online): tare, the benchmark and the system compete for them, so timings pick up tare''s own work","fix":"measure on a machine with at least 4 CPUs, or keep the others idle and pin the benchmark to one CPU (taskset -c <cpu> tare ...)","level":"warn","name":"cpus"},{"finding":"perf_event_paranoid = 2: without CAP_PERFMON only user-space events can be counted; hardware counters that include kernel time need <= 1","fix":"sudo sysctl kernel.perf_event_paranoid=1 (persist in /etc/sysctl.d/), or grant CAP_PERFMON: sudo setcap cap_perfmon+ep \"$(command -v tare)\"","level":"warn","name":"perf_event_paranoid"},{"finding":"no CPU quota on this process''s cgroup or its parents","fix":"","level":"ok","name":"cgroup"},{"finding":"no CPUs are isolated: the scheduler may put other tasks and interrupts on the benchmark''s CPU","fix":"for the quietest runs boot with isolcpus=<cpus> nohz_full=<cpus> rcu_nocbs=<cpus> and pin runs there with taskset -c <cpus>","level":"info","name":"isolation"},{"finding":"SMT is off: no sibling hyperthreads","fix":"","level":"ok","name":"smt"}],"hard_digest":"833419e86e542e2870de6c75274835ecfc664933a615582e5a6f8bfaebe87f20","keys":[{"hard":true,"key":"cpu.vendor","value":"AuthenticAMD"},{"hard":true,"key":"cpu.model_name","value":"AMD EPYC"},{"hard":true,"key":"cpu.family","value":"26"},{"hard":true,"key":"cpu.model","value":"2"},{"hard":true,"key":"cpu.stepping","value":"1"},{"hard":true,"key":"cpu.microcode","value":"unknown"},{"hard":true,"key":"cpu.flags_sha256","value":"720c146e15a5744c759e3cf6fb13fa7189ce265d67394dd2b4e0a8cfa3ca0aef"},{"hard":true,"key":"cpu.logical","value":"2"},{"hard":true,"key":"cpu.cores","value":"2"},{"hard":true,"key":"cpu.caches","value":"unknown"},{"hard":false,"key":"cpu.governor","value":"unknown"},{"hard":false,"key":"cpu.turbo","value":"unknown"},{"hard":false,"key":"cpu.smt","value":"off"},{"hard":false,"key":"cpu.isolated","value":"none"},{"hard":false,"key":"cpu.nohz_full","value":"none"},{"hard":false,"key":"cpu.allowed","value":"0-1"},{"hard":true,"key":"os.kernel","value":"6.18.44-fc-v1045"},{"hard":false,"key":"os.release","value":"Debian GNU/Linux 12 (bookworm)"},{"hard":false,"key":"os.mitigations_sha256","value":"9e606d54cd26120a1b77ce109ceaf5be9da679e41ff7e1dc7be1835cc8de1f06"},{"hard":false,"key":"os.aslr","value":"2"},{"hard":false,"key":"os.perf_event_paranoid","value":"2"},{"hard":false,"key":"os.loadavg","value":"2.78 2.14 2.04"},{"hard":false,"key":"mem.total_bytes","value":"25275953152"},{"hard":false,"key":"mem.available_bytes","value":"24330686464"},{"hard":false,"key":"cgroup.cpu_limit","value":"none"},{"hard":true,"key":"host.hypervisor","value":"present"},{"hard":false,"key":"host.product","value":"unknown"},{"hard":true,"key":"libc.version","value":"2.36"},{"hard":false,"key":"libc.path","value":"/usr/lib/x86_64-linux-gnu/libc.so.6"},{"hard":true,"key":"libc.sha256","value":"6b4a45352fd0c540a9c7c718f35ce8c8e46a4e482f9d3885a910c32d1a0e1421"},{"hard":false,"key":"loader.path","value":"/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2"},{"hard":true,"key":"loader.sha256","value":"02bcda52c1a5dfc236f94d9e5255b4a0e26347d8a372a5223b650e31f291ce3c"},{"hard":true,"key":"env.allocator","value":"none"}],"schema":"tare.fingerprint/1"}','833419e86e542e2870de6c75274835ecfc664933a615582e5a6f8bfaebe87f20','','',NULL);
CREATE TABLE sample_values (
  sample_id INTEGER NOT NULL REFERENCES samples(id),
  metric TEXT NOT NULL,
  value REAL NOT NULL,
  PRIMARY KEY (sample_id, metric)
) WITHOUT ROWID;
INSERT INTO "sample_values" VALUES(1,'involuntary_ctx_switches',2.0);
INSERT INTO "sample_values" VALUES(1,'major_faults',0.0);
INSERT INTO "sample_values" VALUES(1,'minor_faults',59.0);
INSERT INTO "sample_values" VALUES(1,'peak_rss_bytes',1028096.0);
INSERT INTO "sample_values" VALUES(1,'perf.context_switches',0.0);
INSERT INTO "sample_values" VALUES(1,'perf.cpu_migrations',0.0);
INSERT INTO "sample_values" VALUES(1,'perf.page_faults',47.0);
INSERT INTO "sample_values" VALUES(1,'perf.task_clock_ns',2522662.0);
INSERT INTO "sample_values" VALUES(1,'sys_ns',4841000.0);
INSERT INTO "sample_values" VALUES(1,'user_ns',0.0);
INSERT INTO "sample_values" VALUES(1,'voluntary_ctx_switches',1.0);
INSERT INTO "sample_values" VALUES(1,'wall_ns',8977707.0);
INSERT INTO "sample_values" VALUES(2,'involuntary_ctx_switches',2.0);
INSERT INTO "sample_values" VALUES(2,'major_faults',0.0);
INSERT INTO "sample_values" VALUES(2,'minor_faults',61.0);
INSERT INTO "sample_values" VALUES(2,'peak_rss_bytes',1007616.0);
INSERT INTO "sample_values" VALUES(2,'perf.context_switches',1.0);
INSERT INTO "sample_values" VALUES(2,'perf.cpu_migrations',0.0);
INSERT INTO "sample_values" VALUES(2,'perf.page_faults',49.0);
INSERT INTO "sample_values" VALUES(2,'perf.task_clock_ns',2783154.0);
INSERT INTO "sample_values" VALUES(2,'sys_ns',4857000.0);
INSERT INTO "sample_values" VALUES(2,'user_ns',0.0);
INSERT INTO "sample_values" VALUES(2,'voluntary_ctx_switches',1.0);
INSERT INTO "sample_values" VALUES(2,'wall_ns',7944267.0);
INSERT INTO "sample_values" VALUES(3,'involuntary_ctx_switches',1.0);
INSERT INTO "sample_values" VALUES(3,'major_faults',0.0);
INSERT INTO "sample_values" VALUES(3,'minor_faults',60.0);
INSERT INTO "sample_values" VALUES(3,'peak_rss_bytes',1007616.0);
INSERT INTO "sample_values" VALUES(3,'perf.context_switches',0.0);
INSERT INTO "sample_values" VALUES(3,'perf.cpu_migrations',0.0);
INSERT INTO "sample_values" VALUES(3,'perf.page_faults',48.0);
INSERT INTO "sample_values" VALUES(3,'perf.task_clock_ns',2855450.0);
INSERT INTO "sample_values" VALUES(3,'sys_ns',0.0);
INSERT INTO "sample_values" VALUES(3,'user_ns',4563000.0);
INSERT INTO "sample_values" VALUES(3,'voluntary_ctx_switches',1.0);
INSERT INTO "sample_values" VALUES(3,'wall_ns',8197133.0);
INSERT INTO "sample_values" VALUES(4,'involuntary_ctx_switches',2.0);
INSERT INTO "sample_values" VALUES(4,'major_faults',0.0);
INSERT INTO "sample_values" VALUES(4,'minor_faults',84.0);
INSERT INTO "sample_values" VALUES(4,'peak_rss_bytes',1568768.0);
INSERT INTO "sample_values" VALUES(4,'perf.context_switches',1.0);
INSERT INTO "sample_values" VALUES(4,'perf.cpu_migrations',0.0);
INSERT INTO "sample_values" VALUES(4,'perf.page_faults',73.0);
INSERT INTO "sample_values" VALUES(4,'perf.task_clock_ns',4133283.0);
INSERT INTO "sample_values" VALUES(4,'sys_ns',0.0);
INSERT INTO "sample_values" VALUES(4,'user_ns',6556000.0);
INSERT INTO "sample_values" VALUES(4,'voluntary_ctx_switches',1.0);
INSERT INTO "sample_values" VALUES(4,'wall_ns',9645006.0);
CREATE TABLE samples (
  id INTEGER PRIMARY KEY,
  run_id INTEGER NOT NULL REFERENCES runs(id),
  benchmark_id INTEGER NOT NULL REFERENCES benchmarks(id),
  seq INTEGER NOT NULL,
  arm TEXT NOT NULL,
  block INTEGER NOT NULL,
  warmup INTEGER NOT NULL,
  started_unix_ns INTEGER NOT NULL,
  ended_unix_ns INTEGER NOT NULL,
  outcome TEXT NOT NULL,
  exit_code INTEGER NOT NULL,
  signal INTEGER NOT NULL,
  error TEXT NOT NULL,
  stdout_tail TEXT NOT NULL,
  stderr_tail TEXT NOT NULL
);
INSERT INTO "samples" VALUES(1,1,1,0,'',0,1,1796139694813271982,1796139694822249689,'ok',0,0,'','','');
INSERT INTO "samples" VALUES(2,1,1,1,'',1,0,1796139694826880028,1796139694834824295,'ok',0,0,'','','');
INSERT INTO "samples" VALUES(3,1,1,2,'',2,0,1796139694838491808,1796139694846688941,'ok',0,0,'','','');
INSERT INTO "samples" VALUES(4,2,2,0,'',0,0,1796139694955073058,1796139694964718064,'ok',0,0,'','hi
','');
CREATE INDEX samples_by_run ON samples(run_id, seq);
CREATE INDEX ab_cohorts_by_campaign ON ab_cohorts(campaign_sha256, cohort);
CREATE INDEX runs_by_commit ON runs(git_commit, id);
CREATE INDEX runs_by_branch ON runs(git_branch, id);
CREATE INDEX run_tags_by_value ON run_tags(key, value, run_id);
CREATE INDEX benchmarks_by_name ON benchmarks(name, run_id);
CREATE INDEX samples_by_benchmark ON samples(benchmark_id);
COMMIT;
PRAGMA user_version = 3;
