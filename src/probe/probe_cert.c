/*
 * probe_cert.c: the server's leaf certificate as blackbox_exporter labels
 * it in probe_ssl_last_chain_info: the SHA-256 of its DER, subject and
 * issuer as Go's pkix.Name.String() writes them, the DNS names of its
 * subjectAltName joined with ",", and the serial number in lowercase hex
 * of its minimal big-endian bytes (Go's fmt "%x" of big.Int.Bytes()).
 * Input: the live SSL* of a transfer (void*).  Output: pooled strings in
 * struct hop_tls.  No OpenSSL type leaves this file.
 */
#include <openssl/asn1.h>
#include <openssl/bn.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <stdio.h>
#include <string.h>

#include "arraysize.h"
#include "buf.h"
#include "probe_int.h"
#include "strpool.h"
#include "banned.h"

/* The attributes Go's pkix.Name keeps by name, in the order
 * Name.ToRDNSequence emits them; String() prints them reversed. */
static const struct {
  int nid;
  const char *name;
} go_attrs[] = {
    {NID_countryName, "C"},
    {NID_stateOrProvinceName, "ST"},
    {NID_localityName, "L"},
    {NID_streetAddress, "STREET"},
    {NID_postalCode, "POSTALCODE"},
    {NID_organizationName, "O"},
    {NID_organizationalUnitName, "OU"},
    {NID_commonName, "CN"},
    {NID_serialNumber, "SERIALNUMBER"},
};
#define N_GO_ATTRS (ARRAY_SIZE(go_attrs))

/* Go's Name.FillFromRDNSequence consumes 2.5.4.{3,4,5,6,7,8,9,10,11,17}
 * (surname, 2.5.4.4, is consumed and then never printed); every other
 * attribute is printed as OID=#DER. */
static int go_consumed(int nid)
{
  size_t i;

  if (nid == NID_surname)
    return 1;
  for (i = 0; i < N_GO_ATTRS; i++)
    if (go_attrs[i].nid == nid)
      return 1;
  return 0;
}

/* RFC 2253 escaping as Go's RDNSequence.String() does it. */
static void go_escaped(struct buf *b, const unsigned char *v, size_t n)
{
  size_t k;

  for (k = 0; k < n; k++) {
    unsigned char c = v[k];
    int esc = c == ',' || c == '+' || c == '"' || c == '\\' || c == '<' ||
              c == '>' || c == ';' || (c == ' ' && (k == 0 || k == n - 1)) ||
              (c == '#' && k == 0);

    if (esc)
      buf_putc(b, '\\');
    buf_putc(b, (char)c);
  }
}

/* Go's asn1.Marshal of a string: PrintableString when every byte is in
 * its set, else UTF8String; DER, in hex. */
static void go_der_hex(struct buf *b, const unsigned char *v, size_t n)
{
  int printable = 1;
  size_t k, len = n;
  unsigned char lenb[8];
  int nl = 0;

  for (k = 0; k < n; k++) {
    unsigned char c = v[k];

    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
          (c >= '0' && c <= '9') || strchr(" '()+,-./:=?", c)) ||
        !c)
      printable = 0;
  }
  buf_printf(b, "%02x", printable ? 0x13 : 0x0c);
  if (n < 128) {
    buf_printf(b, "%02x", (unsigned)n);
  }
  else {
    while (len && nl < (int)sizeof(lenb)) {
      lenb[nl++] = (unsigned char)(len & 0xff);
      len >>= 8;
    }
    buf_printf(b, "%02x", 0x80u | (unsigned)nl);
    while (nl > 0)
      buf_printf(b, "%02x", lenb[--nl]);
  }
  for (k = 0; k < n; k++)
    buf_printf(b, "%02x", v[k]);
}

/* Print entry e of name as "TYPE=value" into b; 0 when its value is not a
 * string Go would keep. */
static int go_attr(struct buf *b, const X509_NAME_ENTRY *e, const char *type)
{
  unsigned char *u = NULL;
  int n = ASN1_STRING_to_UTF8(&u, X509_NAME_ENTRY_get_data(e));
  char oid[128];

  if (n < 0)
    return 0;
  if (type) {
    buf_printf(b, "%s=", type);
    go_escaped(b, u, (size_t)n);
  }
  else {
    OBJ_obj2txt(oid, sizeof(oid), X509_NAME_ENTRY_get_object(e), 1);
    buf_printf(b, "%s=#", oid);
    go_der_hex(b, u, (size_t)n);
  }
  OPENSSL_free(u);
  return 1;
}

/* name as Go's pkix.Name.String(): the named attributes in reverse
 * ToRDNSequence order (all values of one type as one RDN joined by "+"),
 * then the others, last one first. */
static const char *go_name(const X509_NAME *name)
{
  struct buf b;
  const char *out;
  int i, n = X509_NAME_entry_count(name), first = 1;
  size_t a;

  buf_init(&b, 128);
  for (a = N_GO_ATTRS; a > 0; a--) {
    int nid = go_attrs[a - 1].nid, started = 0;

    /* Go keeps a single CommonName and SerialNumber: the last one. */
    int single = nid == NID_commonName || nid == NID_serialNumber, last = -1;

    for (i = 0; i < n; i++)
      if (OBJ_obj2nid(
              X509_NAME_ENTRY_get_object(X509_NAME_get_entry(name, i))) == nid)
        last = i;
    for (i = 0; i < n; i++) {
      const X509_NAME_ENTRY *e = X509_NAME_get_entry(name, i);

      if (OBJ_obj2nid(X509_NAME_ENTRY_get_object(e)) != nid ||
          (single && i != last))
        continue;
      if (started)
        buf_putc(&b, '+');
      else if (!first)
        buf_putc(&b, ',');
      if (go_attr(&b, e, go_attrs[a - 1].name)) {
        started = 1;
        first = 0;
      }
    }
  }
  for (i = n; i > 0; i--) {
    const X509_NAME_ENTRY *e = X509_NAME_get_entry(name, i - 1);

    if (go_consumed(OBJ_obj2nid(X509_NAME_ENTRY_get_object(e))))
      continue;
    if (!first)
      buf_putc(&b, ',');
    first = 0;
    go_attr(&b, e, NULL);
  }
  out = strpool_intern(b.s ? b.s : "");
  buf_release(&b);
  return out;
}

static const char *dns_names(X509 *crt)
{
  GENERAL_NAMES *gens =
      X509_get_ext_d2i(crt, NID_subject_alt_name, NULL, NULL);
  struct buf b;
  const char *out;
  int i;

  buf_init(&b, 64);
  for (i = 0; gens && i < sk_GENERAL_NAME_num(gens); i++) {
    const GENERAL_NAME *g = sk_GENERAL_NAME_value(gens, i);

    if (g->type != GEN_DNS)
      continue;
    if (b.len)
      buf_putc(&b, ',');
    buf_add(&b, (const char *)ASN1_STRING_get0_data(g->d.dNSName),
            (size_t)ASN1_STRING_length(g->d.dNSName));
  }
  GENERAL_NAMES_free(gens);
  out = strpool_intern(b.s ? b.s : "");
  buf_release(&b);
  return out;
}

static const char *serial_hex(X509 *crt)
{
  BIGNUM *bn = ASN1_INTEGER_to_BN(X509_get0_serialNumber(crt), NULL);
  unsigned char raw[64];
  char hex[2 * sizeof(raw) + 1];
  int n, k;

  hex[0] = '\0';
  n = bn && BN_num_bytes(bn) <= (int)sizeof(raw) ? BN_bn2bin(bn, raw) : 0;
  for (k = 0; k < n; k++)
    snprintf(hex + 2 * k, 3, "%02x", raw[k]);
  BN_free(bn);
  return strpool_intern(hex);
}

void probe_cert_read(void *ptr, struct hop_tls *out)
{
  X509 *leaf = ptr;
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int mdlen = 0, k;
  char hex[2 * EVP_MAX_MD_SIZE + 1];

  if (!leaf || out->leaf_sha256)
    return;
  if (X509_digest(leaf, EVP_sha256(), md, &mdlen) == 1) {
    for (k = 0; k < mdlen; k++)
      snprintf(hex + 2 * k, 3, "%02x", md[k]);
    hex[2 * mdlen] = '\0';
    out->leaf_sha256 = strpool_intern(hex);
    out->leaf_subject = go_name(X509_get_subject_name(leaf));
    out->leaf_issuer = go_name(X509_get_issuer_name(leaf));
    out->leaf_dns_names = dns_names(leaf);
    out->leaf_serial = serial_hex(leaf);
  }
}
