#!/usr/bin/env bash
# A real S3 store for the tests: Ceph RGW (Debian's radosgw, Ceph 16.2) as a single-node cluster on
# 127.0.0.1 — one mon, one OSD, one radosgw, no mgr — with all state under one folder.
#
#   scripts/rgw.sh start     install Ceph with apt when missing (needs root), bring the cluster up,
#                            create the S3 user; prints the endpoint. Does nothing if already up.
#   scripts/rgw.sh stop      stop radosgw, then the OSD, then the mon (that order: radosgw hangs
#                            when the OSD is gone first) and remove the folder.
#   scripts/rgw.sh env       prints `export OHARNESS_TEST_RGW_*=…` lines for a running cluster.
#   scripts/rgw.sh status    exit 0 when the S3 endpoint answers.
#
# The folder is $MEMDESK_RGW_DIR, default ${TMPDIR:-/tmp}/memdesk-rgw: the tests look there (or in
# $MEMDESK_RGW_DIR) for rgw.json, so one `start` serves every worktree on a machine. Ports are picked
# free at start and written to rgw.json. The OSD uses memstore by default (≈ 7 s bring-up, data
# lives in RAM and is gone after stop — right for tests); MEMDESK_RGW_OBJECTSTORE=bluestore keeps it
# on a sparse 10 GiB file in the folder instead (≈ 15 s).
set -euo pipefail

BASE="${MEMDESK_RGW_DIR:-${TMPDIR:-/tmp}/memdesk-rgw}"
STORE="${MEMDESK_RGW_OBJECTSTORE:-memstore}"
ACCESS_KEY="memdesk-test-access"
SECRET_KEY="memdesk-test-secret-not-for-production"

log() { echo "rgw: $*" >&2; }
die() {
  log "$*"
  exit 1
}

free_port() {
  node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"
}

endpoint() { sed -n 's/.*"endpoint": *"\([^"]*\)".*/\1/p' "$BASE/rgw.json" 2>/dev/null; }

answers() {
  local url="$1"
  [ -n "$url" ] && [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "$url/" || true)" = 200 ]
}

install_ceph() {
  command -v radosgw >/dev/null 2>&1 && command -v ceph-mon >/dev/null 2>&1 &&
    command -v ceph-osd >/dev/null 2>&1 && command -v ceph >/dev/null 2>&1 && return 0
  [ "$(id -u)" = 0 ] || die "Ceph is not installed and this is not root: run as root, or
  apt-get install -y --no-install-recommends ceph-mon ceph-osd radosgw ceph-common"
  log "installing Ceph (ceph-mon ceph-osd radosgw ceph-common) with apt"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends ceph-mon ceph-osd radosgw ceph-common curl >/dev/null
}

wait_until() {
  local what="$1" tries="$2"
  shift 2
  for _ in $(seq "$tries"); do
    if "$@" >/dev/null 2>&1; then return 0; fi
    sleep 0.25
  done
  die "$what did not come up; logs in $BASE/log"
}

osd_up() { ceph -c "$BASE/ceph.conf" osd stat -f json 2>/dev/null | grep -q '"num_up_osds":1'; }

start() {
  if answers "$(endpoint)"; then
    log "already running at $(endpoint)"
    endpoint
    return 0
  fi
  install_ceph
  command -v curl >/dev/null 2>&1 || die "curl is needed (apt-get install curl)"
  # Whatever a previous run left (a crashed cluster) goes first.
  stop_daemons
  rm -rf "$BASE"
  mkdir -p "$BASE"/{run,log,mon.a,osd.0,rgw}
  local started=$SECONDS
  local mon2 mon1 rgwport fsid
  mon2=$(free_port)
  mon1=$(free_port)
  rgwport=$(free_port)
  fsid=$(cat /proc/sys/kernel/random/uuid)

  cat >"$BASE/ceph.conf" <<EOF
[global]
fsid = $fsid
mon host = [v2:127.0.0.1:$mon2,v1:127.0.0.1:$mon1]
mon initial members = a
public network = 127.0.0.0/8
ms bind ipv6 = false
auth cluster required = cephx
auth service required = cephx
auth client required = cephx
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 8
osd pool default pgp num = 8
osd pool default pg autoscale mode = off
osd crush chooseleaf type = 0
mon allow pool size one = true
mon warn on pool no redundancy = false
run dir = $BASE/run
pid file = $BASE/run/\$name.pid
admin socket = $BASE/run/\$name.asok
log file = $BASE/log/\$name.log
keyring = $BASE/admin.keyring

[mon]
mon data = $BASE/mon.\$id
paxos propose interval = 0.05
paxos min wait = 0.01

[osd]
osd data = $BASE/osd.\$id
keyring = $BASE/osd.\$id/keyring
osd objectstore = $STORE
bluestore block create = true
bluestore block size = 10737418240
osd memory target = 939524096

[client.rgw.a]
keyring = $BASE/rgw.keyring
rgw data = $BASE/rgw
rgw frontends = beast endpoint=127.0.0.1:$rgwport
EOF
  local conf=(-c "$BASE/ceph.conf")

  # Keys: the mon's, the admin's (imported into the mon's so the mon knows it), then the monmap.
  ceph-authtool --create-keyring "$BASE/mon.keyring" --gen-key -n mon. --cap mon 'allow *' >/dev/null
  ceph-authtool --create-keyring "$BASE/admin.keyring" --gen-key -n client.admin \
    --cap mon 'allow *' --cap osd 'allow *' --cap mds 'allow *' --cap mgr 'allow *' >/dev/null
  ceph-authtool "$BASE/mon.keyring" --import-keyring "$BASE/admin.keyring" >/dev/null
  monmaptool --create --addv a "[v2:127.0.0.1:$mon2,v1:127.0.0.1:$mon1]" --fsid "$fsid" \
    "$BASE/monmap" >/dev/null
  ceph-mon "${conf[@]}" --mkfs -i a --monmap "$BASE/monmap" --keyring "$BASE/mon.keyring"
  ceph-mon "${conf[@]}" -i a
  wait_until "the Ceph monitor" 120 ceph "${conf[@]}" mon stat

  # One OSD.
  local uuid secret
  uuid=$(cat /proc/sys/kernel/random/uuid)
  secret=$(ceph-authtool --gen-print-key)
  echo "{\"cephx_secret\": \"$secret\"}" >"$BASE/osd-new.json"
  ceph "${conf[@]}" osd new "$uuid" -i "$BASE/osd-new.json" >/dev/null
  printf '[osd.0]\n\tkey = %s\n' "$secret" >"$BASE/osd.0/keyring"
  ceph-osd "${conf[@]}" -i 0 --mkfs --key "$secret" --osd-uuid "$uuid" >/dev/null 2>&1 ||
    die "ceph-osd --mkfs failed; logs in $BASE/log"
  ceph-osd "${conf[@]}" -i 0 2>>"$BASE/log/osd.0.start.log"
  wait_until "the Ceph OSD" 240 osd_up

  # The gateway and its S3 user.
  ceph "${conf[@]}" auth get-or-create client.rgw.a mon 'allow rw' osd 'allow rwx' mgr 'allow rw' \
    >"$BASE/rgw.keyring"
  radosgw "${conf[@]}" -n client.rgw.a
  wait_until "radosgw" 240 answers "http://127.0.0.1:$rgwport"
  radosgw-admin "${conf[@]}" user create --uid=memdesk-tests --display-name="Memory Desk tests" \
    --access-key="$ACCESS_KEY" --secret-key="$SECRET_KEY" >/dev/null

  cat >"$BASE/rgw.json.tmp" <<EOF
{
  "endpoint": "http://127.0.0.1:$rgwport",
  "region": "us-east-1",
  "accessKeyId": "$ACCESS_KEY",
  "secretAccessKey": "$SECRET_KEY",
  "objectStore": "$STORE"
}
EOF
  mv "$BASE/rgw.json.tmp" "$BASE/rgw.json"
  log "Ceph RGW ($STORE) up at http://127.0.0.1:$rgwport in $((SECONDS - started)) s (state in $BASE)"
  echo "http://127.0.0.1:$rgwport"
}

stop_one() {
  local pidfile="$BASE/run/$1.pid" pid
  [ -f "$pidfile" ] || return 0
  pid=$(cat "$pidfile")
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 80); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.125
    done
    kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$pidfile"
}

stop_daemons() {
  [ -d "$BASE/run" ] || return 0
  stop_one client.rgw.a
  stop_one osd.0
  stop_one mon.a
}

stop() {
  stop_daemons
  rm -rf "$BASE"
  log "stopped"
}

env_lines() {
  [ -f "$BASE/rgw.json" ] || die "not running (start it with scripts/rgw.sh start)"
  echo "export MEMDESK_RGW_DIR='$BASE'"
  echo "export OHARNESS_TEST_RGW_ENDPOINT='$(endpoint)'"
  echo "export OHARNESS_TEST_RGW_ACCESS_KEY_ID='$ACCESS_KEY'"
  echo "export OHARNESS_TEST_RGW_SECRET_ACCESS_KEY='$SECRET_KEY'"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  env) env_lines ;;
  status) answers "$(endpoint)" ;;
  *)
    echo "usage: scripts/rgw.sh start|stop|env|status" >&2
    exit 2
    ;;
esac
