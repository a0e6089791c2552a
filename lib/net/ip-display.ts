// How an IP address is shown to people (audit trail, certificate page): an IPv4 client seen by a
// dual-stack server arrives as "::ffff:203.0.113.7"; readers know it as 203.0.113.7.
import ipaddr from "ipaddr.js";

export function displayIp(ip: string): string {
  return ipaddr.isValid(ip) ? ipaddr.process(ip).toString() : ip;
}
