#include "base/sha256.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <nettle/sha2.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

namespace tare {
namespace {

std::string ToHex(const uint8_t* digest, size_t len) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(len * 2);
  for (size_t i = 0; i < len; ++i) {
    out += kHex[digest[i] >> 4];
    out += kHex[digest[i] & 0xf];
  }
  return out;
}

std::string Digest(sha256_ctx& ctx) {
  uint8_t digest[SHA256_DIGEST_SIZE];
  sha256_digest(&ctx, sizeof digest, digest);
  return ToHex(digest, sizeof digest);
}

}  // namespace

StatusOr<std::string> Sha256File(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return Status::NotFound(fmt::format("cannot read '{}' to hash it: {}", path, std::strerror(errno)));
  }
  auto sha = Sha256Fd(fd, path);
  ::close(fd);
  return sha;
}

StatusOr<std::string> Sha256Fd(int fd, const std::string& path) {
  sha256_ctx ctx;
  sha256_init(&ctx);
  std::vector<uint8_t> buf(1 << 16);
  bool seekable = true;  // a pipe or FIFO is read as it comes
  for (int64_t offset = 0;;) {
    ssize_t n = seekable ? ::pread(fd, buf.data(), buf.size(), offset) : ::read(fd, buf.data(), buf.size());
    if (n < 0 && errno == ESPIPE && seekable && offset == 0) {
      seekable = false;
      continue;
    }
    if (n > 0) {
      sha256_update(&ctx, static_cast<size_t>(n), buf.data());
      offset += n;
    } else if (n == 0) {
      break;
    } else if (errno != EINTR) {
      return Status::DataLoss(fmt::format("read error while hashing '{}': {}", path, std::strerror(errno)));
    }
  }
  return Digest(ctx);
}

std::string Sha256Hex(std::string_view data) {
  sha256_ctx ctx;
  sha256_init(&ctx);
  sha256_update(&ctx, data.size(), reinterpret_cast<const uint8_t*>(data.data()));
  return Digest(ctx);
}

}  // namespace tare
