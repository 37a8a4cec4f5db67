// The only door to libxml2. Nothing above the PlistReader module sees these declarations.
#ifndef CHECKOUT_CLIBXML2_SHIM_H
#define CHECKOUT_CLIBXML2_SHIM_H

#include <stddef.h>
#include <string.h>

// Debian builds libxml2 with ICU; its headers then pull in ICU's, which clash with Foundation's
// copy of ICU in a clean build ("'UErrorCode' has different definitions"). We never use libxml2's
// ICU-based encoders, so hide them.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED

#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/xmlerror.h>

/// Refuses every external entity or DTD that libxml2 would load: NONET alone does not stop file://.
static xmlParserInputPtr checkout_refuse_external(const char *url, const char *id, xmlParserCtxtPtr ctxt) {
    (void)url; (void)id; (void)ctxt;
    return NULL;
}

/// Installs the refusing loader process-wide. Idempotent.
static inline void checkout_xml_install_refusing_loader(void) {
    xmlSetExternalEntityLoader(checkout_refuse_external);
}

#if defined(__GLIBC__)
// glibc's, declared here rather than through _GNU_SOURCE, which would change system headers under
// other modules' feet.
extern void *memrchr(const void *s, int c, size_t n);
#endif

/// The last `c` in the `n` bytes at `s`, or NULL (glibc's memrchr, vectorized).
static inline const unsigned char *checkout_memrchr(const unsigned char *s, int c, size_t n) {
#if defined(__GLIBC__)
    return (const unsigned char *)memrchr(s, c, n);
#else
    while (n > 0) { if (s[--n] == (unsigned char)c) return s + n; }
    return NULL;
#endif
}

#endif
