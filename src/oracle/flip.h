// Flip probabilities: how often a majority vote over fresh processes pins the wrong side of an
// item, and what retries do to that. Exact binomial arithmetic, no simulation. The derivation is
// in docs/oracle.md ("The arithmetic of a vote"); in short, for one item with per-process
// probability p of appearing and a vote over n trials (present iff more than half show it):
//
//   q = P(one vote lands on the wrong side)
//     = P(Binom(n, p) <= floor(n/2))       when the golden pins the item present
//     = P(Binom(n, p) >  floor(n/2))       when the golden pins it absent
//
// The check re-votes on mismatch, up to R more times, each attempt a fresh set of processes and
// therefore independent. It goes red only when every one of the R + 1 attempts is wrong:
//
//   P(red)                    = q^(R+1)               ("wrong on every attempt")
//   P(wrong at least once)    = 1 - (1 - q)^(R+1)     (over R + 1 votes that all run)
//
// The second is the one that bites in the other direction: when a real change moves an item to
// p' near one half, "the golden's side wins at least once" is 1 - (1 - g)^(R+1) with
// g = P(one vote agrees with the golden), and that is how often retries mask the change.
//
// Example (the case that motivated tare oracle): n = 9, pinned present,
//   p = 0.8 -> q = 0.0196,  p = 0.7 -> q = 0.0988,  p = 0.6 -> q = 0.2666;
//   with R = 1: P(red) = 0.00038, 0.0098, 0.0711.
#pragma once

namespace tare::oracle {

// q above. `trials` >= 1; p in [0, 1].
double VoteWrongProbability(double p, int trials, bool pinned_present);

// q^(R+1): the vote is wrong on every one of 1 + retries independent attempts.
double WrongOnEveryAttempt(double q, int retries);

// 1 - (1 - q)^(R+1): wrong on at least one of 1 + retries independent attempts, computed without
// cancellation for small q.
double WrongAtLeastOnce(double q, int retries);

// Expected number of processes a check spends when each attempt independently mismatches with
// probability q: trials * (1 + q + ... + q^R) (attempt a + 1 runs only if attempts 1..a mismatched).
double ExpectedProcesses(double q, int trials, int retries);

}  // namespace tare::oracle
