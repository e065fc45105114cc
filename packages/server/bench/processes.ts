/** Child processes of the benchmark: started, waited for, measured and stopped. */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";

export type Child = {
  process: ChildProcess;
  port: number;
  stop(): Promise<void>;
  rssMb(): number;
  /** CPU time (user + system) the process has used so far, in microseconds (10 ms resolution). */
  cpuMicros(): number;
};

/** Starts a script that prints `listening <port>` (or a broker that logs its address). */
export function startProcess(command: string, args: string[], env: Record<string, string>, ready: RegExp): Promise<Child> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    const timer = setTimeout(() => reject(new Error(`${args.join(" ")} did not start:\n${output.slice(-2000)}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = ready.exec(output);
      if (!match) return;
      clearTimeout(timer);
      child.stdout!.off("data", onData);
      // Keep draining output so a chatty child never blocks on a full pipe.
      child.stdout!.resume();
      resolve({
        process: child,
        port: Number(match[1]),
        rssMb: () => readRssMb(child.pid!),
        cpuMicros: () => readCpuMicros(child.pid!),
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            child.once("exit", () => done());
            child.kill("SIGTERM");
            setTimeout(() => child.kill("SIGKILL"), 5000).unref();
          }),
      });
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${args.join(" ")} exited with ${code}:\n${output.slice(-2000)}`));
    });
  });
}

function readRssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return Math.round((kb / 1024) * 10) / 10;
  } catch {
    return 0;
  }
}

/** Clock ticks per second of /proc/<pid>/stat's utime and stime (USER_HZ, 100 on Linux). */
const CLOCK_TICKS = 100;

/** utime + stime from /proc/<pid>/stat (fields 14 and 15), in microseconds; 0 where /proc is missing. */
function readCpuMicros(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may contain spaces: count fields from after its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}
