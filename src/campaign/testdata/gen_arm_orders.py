#!/usr/bin/python3
"""Independent implementation of arm order random-v1 (campaign/arm_order.h), for the known-answer
test in arm_order_test.cc: MT19937-64 as published by Nishimura & Matsumoto (2000) and as the C++
standard specifies std::mt19937_64, the SplitMix64 finalizer, rejection-sampled bounded draws and
Fisher–Yates. Run: /usr/bin/python3 src/campaign/testdata/gen_arm_orders.py
"""
M64 = (1 << 64) - 1


class MT19937_64:
    NN, MM = 312, 156
    MATRIX_A, UM, LM = 0xB5026F5AA96619E9, 0xFFFFFFFF80000000, 0x7FFFFFFF

    def __init__(self, seed=5489):
        self.mt = [seed & M64]
        for i in range(1, self.NN):
            prev = self.mt[-1]
            self.mt.append((6364136223846793005 * (prev ^ (prev >> 62)) + i) & M64)
        self.mti = self.NN

    def __call__(self):
        NN, MM, mt = self.NN, self.MM, self.mt
        if self.mti >= NN:
            for i in range(NN):
                x = (mt[i] & self.UM) | (mt[(i + 1) % NN] & self.LM)
                mt[i] = mt[(i + MM) % NN] ^ (x >> 1) ^ (self.MATRIX_A if x & 1 else 0)
            self.mti = 0
        x = mt[self.mti]
        self.mti += 1
        x ^= (x >> 29) & 0x5555555555555555
        x ^= (x << 17) & 0x71D67FFFEDA60000
        x ^= (x << 37) & 0xFFF7EEE000000000
        x ^= x >> 43
        return x & M64


def splitmix64(x):
    x ^= x >> 30
    x = (x * 0xBF58476D1CE4E5B9) & M64
    x ^= x >> 27
    x = (x * 0x94D049BB133111EB) & M64
    x ^= x >> 31
    return x


def uniform_below(rng, bound):
    threshold = ((1 << 64) - bound) % bound
    while True:
        x = rng()
        if x >= threshold:
            return x % bound


def block_order(k, block, seed):
    rng = MT19937_64(splitmix64((seed + 0x9E3779B97F4A7C15 * (block + 1)) & M64))
    arms = list(range(k))
    for i in range(k - 1, 0, -1):
        j = uniform_below(rng, i + 1)
        arms[i], arms[j] = arms[j], arms[i]
    return "".join(chr(ord("A") + a) for a in arms)


if __name__ == "__main__":
    rng = MT19937_64()
    for _ in range(9999):
        rng()
    assert rng() == 9981545732273789042, "not the standard mt19937_64"
    print("k=3 seed=42:", " ".join(block_order(3, b, 42) for b in range(8)))
    print("k=2 seed=7: ", " ".join(block_order(2, b, 7) for b in range(12)))
    print("k=5 seed=2024:", " ".join(block_order(5, b, 2024) for b in range(6)))
