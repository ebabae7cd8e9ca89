#!/usr/bin/env bash
# A real S3 server for the production test suite: a one-node Ceph cluster (one monitor, one
# in-memory OSD) with a RADOS Gateway in front, everything on loopback and under one folder,
# without authentication between the daemons. Needs Debian's ceph-mon, ceph-osd and radosgw.
#
#   test/support/radosgw.sh start DIR [PORT]   starts it (S3 on 127.0.0.1:PORT, default 7480) and
#                                              writes DIR/s3.env: FOLIO_TEST_S3_ENDPOINT and keys
#   test/support/radosgw.sh stop DIR           stops the daemons and deletes DIR
#
# The suite reads the variables of s3.env (see test/support/harness.ts); each test app makes its
# own bucket. The OSD keeps its objects in memory (1 GiB): nothing survives a stop.
set -euo pipefail

cmd=${1:?start or stop}
dir=${2:?a folder for the cluster}
port=${3:-7480}
mon_port=$((port + 1))

stop() {
  for pidfile in "$dir"/run/*.pid; do
    [ -e "$pidfile" ] || continue
    kill "$(cat "$pidfile")" 2>/dev/null || true
  done
  sleep 1
  for pidfile in "$dir"/run/*.pid; do
    [ -e "$pidfile" ] || continue
    kill -9 "$(cat "$pidfile")" 2>/dev/null || true
  done
  rm -rf "$dir"
}

if [ "$cmd" = stop ]; then
  stop
  exit 0
fi

for bin in ceph-mon ceph-osd radosgw radosgw-admin monmaptool ceph; do
  command -v "$bin" >/dev/null || { echo "radosgw.sh: $bin not found (apt-get install ceph-mon ceph-osd radosgw)" >&2; exit 1; }
done
[ -d "$dir" ] && stop
mkdir -p "$dir"/{run,log,mon,osd,rgw}
dir=$(cd "$dir" && pwd)
conf="$dir/ceph.conf"
fsid=$(cat /proc/sys/kernel/random/uuid)

cat >"$conf" <<EOF
[global]
fsid = $fsid
mon host = v2:127.0.0.1:$mon_port
mon initial members = a
auth cluster required = none
auth service required = none
auth client required = none
ms bind msgr1 = false
# with no authentication a connection can only be crc-checked; clients would ask for "secure"
ms mon client mode = crc
ms client mode = crc
ms mon cluster mode = crc
ms mon service mode = crc
ms cluster mode = crc
ms service mode = crc
ms bind port min = $((port + 100))
ms bind port max = $((port + 199))
public addr = 127.0.0.1
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 8
osd pool default pgp num = 8
osd pool default pg autoscale mode = off
mon allow pool size one = true
mon warn on pool no redundancy = false
osd crush chooseleaf type = 0
osd objectstore = memstore
memstore device bytes = 1073741824
run dir = $dir/run
pid file = $dir/run/\$name.pid
admin socket = $dir/run/\$name.asok
log file = $dir/log/\$name.log
mon data = $dir/mon/\$cluster-\$id
osd data = $dir/osd/\$cluster-\$id
keyring = $dir/keyring

[client.rgw.a]
rgw frontends = beast endpoint=127.0.0.1:$port
rgw data = $dir/rgw
EOF

step() { printf 'radosgw.sh: %s\n' "$*"; }
fail() {
  echo "radosgw.sh: $1; the last lines of its log:" >&2
  tail -n 20 "$dir/log/$2.log" >&2 2>/dev/null || true
  exit 1
}

step "monitor on 127.0.0.1:$mon_port"
monmaptool --create --fsid "$fsid" --addv a "[v2:127.0.0.1:$mon_port]" "$dir/monmap" >/dev/null
ceph-mon -c "$conf" --mkfs -i a --monmap "$dir/monmap" || fail "the monitor could not be created" mon.a
ceph-mon -c "$conf" -i a || fail "the monitor did not start" mon.a
timeout 60 ceph -c "$conf" mon stat >/dev/null || fail "the monitor does not answer" mon.a

step "in-memory OSD"
osd=$(timeout 60 ceph -c "$conf" osd create)
mkdir -p "$dir/osd/ceph-$osd"
ceph-osd -c "$conf" -i "$osd" --mkfs >/dev/null 2>&1 || fail "the OSD could not be created" "osd.$osd"
ceph-osd -c "$conf" -i "$osd" || fail "the OSD did not start" "osd.$osd"
for _ in $(seq 1 60); do
  ceph -c "$conf" osd stat 2>/dev/null | grep -q '1 up' && break
  sleep 1
done
ceph -c "$conf" osd stat | grep -q '1 up' || fail "the OSD did not come up" "osd.$osd"

step "RADOS Gateway on 127.0.0.1:$port"
radosgw -c "$conf" -n client.rgw.a || fail "the gateway did not start" client.rgw.a
for _ in $(seq 1 120); do
  curl -s -o /dev/null "http://127.0.0.1:$port/" && break
  sleep 1
done
curl -s -o /dev/null "http://127.0.0.1:$port/" || fail "the gateway does not answer on port $port" client.rgw.a

access=folio$(head -c 6 /dev/urandom | od -An -tx1 | tr -d ' \n')
secret=$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')
radosgw-admin -c "$conf" user create --uid=folio-tests --display-name="Folio tests" --access-key="$access" --secret-key="$secret" >/dev/null \
  || fail "the S3 user could not be created" client.rgw.a
cat >"$dir/s3.env" <<EOF
FOLIO_TEST_S3_ENDPOINT=http://127.0.0.1:$port
FOLIO_TEST_S3_ACCESS_KEY=$access
FOLIO_TEST_S3_SECRET_KEY=$secret
EOF
step "ready: S3 on http://127.0.0.1:$port ($(radosgw --version | head -n 1 | cut -d' ' -f1-3))"
