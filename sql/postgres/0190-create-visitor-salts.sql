-- What an organization keeps of its visitors' IP addresses in the raw CDN logs: 'full', 'truncated'
-- (IPv4 without its last octet, IPv6 without its last 80 bits) or 'none'.
ALTER TABLE organizations ADD COLUMN client_ips text NOT NULL DEFAULT 'full' CHECK (client_ips IN ('full', 'truncated', 'none'));

-- The secret salt of each UTC day's visitor keys (a hash of salt, IP, user agent and
-- distribution). A salt is deleted two days after it was made, so no key can be traced back to an
-- address once its day is over; lines of that day arriving later get a new salt.
CREATE TABLE visitor_salts (
  day        date PRIMARY KEY,
  salt       bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
