/*
 * serve.h: "hopsplit serve [--listen ADDR:PORT] [--config PROFILE.yaml]
 * [--max-concurrent N] [OPTIONS]", a prober for Prometheus in the manner
 * of blackbox_exporter (hopsplit(1) SERVE).  The stage's own header is
 * serve_int.h.
 */
#ifndef HOPSPLIT_SERVE_H
#define HOPSPLIT_SERVE_H

/* argv[0] is "serve".  Runs until SIGTERM or SIGINT; returns the exit
 * status: 0 after a drain, 2 for a usage or profile error, 4 when it
 * cannot listen or set up the libraries, 130 after a second signal. */
int cmd_serve(int argc, char **argv);

#endif
