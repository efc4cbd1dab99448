// Bounds on an imported official file that arrives compressed (the CSL's gzip, OFAC's ZIP): a few
// kilobytes can unpack to gigabytes. The largest real one, SDN_ENHANCED.XML, is estimated at
// ~120 MB; trade.gov's CSL unpacks to ~6 MB.
export const UNPACKED_BYTES = 256 * 2 ** 20;
