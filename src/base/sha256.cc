#include "base/sha256.h"

#include <fmt/format.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <memory>
#include <vector>

namespace tare {
namespace {

std::string ToHex(const unsigned char* digest, unsigned int len) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(len * 2);
  for (unsigned int i = 0; i < len; ++i) {
    out += kHex[digest[i] >> 4];
    out += kHex[digest[i] & 0xf];
  }
  return out;
}

using MdCtx = std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)>;

// SHA-256 needs nothing of the system's OpenSSL configuration (/usr/lib/ssl/openssl.cnf), whose
// loading cost every run's first hash ~1.5 ms on the VM of bench/README.md (3.4 against 1.7 ms).
// Called before every digest; OpenSSL runs its initialisation once.
const EVP_MD* Sha256() {
  static const bool initialised = OPENSSL_init_crypto(OPENSSL_INIT_NO_LOAD_CONFIG, nullptr) == 1;
  (void)initialised;
  return EVP_sha256();
}

}  // namespace

StatusOr<std::string> Sha256File(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return Status::NotFound(fmt::format("cannot read '{}' to hash it: {}", path, std::strerror(errno)));
  }
  MdCtx ctx(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
  if (!ctx || EVP_DigestInit_ex(ctx.get(), Sha256(), nullptr) != 1) {
    return Status::Internal("OpenSSL could not initialise SHA-256");
  }
  std::vector<char> buf(1 << 16);
  while (in) {
    in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
    if (in.gcount() > 0) EVP_DigestUpdate(ctx.get(), buf.data(), static_cast<size_t>(in.gcount()));
  }
  if (in.bad()) return Status::DataLoss(fmt::format("read error while hashing '{}'", path));
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  EVP_DigestFinal_ex(ctx.get(), digest, &len);
  return ToHex(digest, len);
}

std::string Sha256Hex(std::string_view data) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  EVP_Digest(data.data(), data.size(), digest, &len, Sha256(), nullptr);
  return ToHex(digest, len);
}

}  // namespace tare
