// How a campaign run's devices split between platforms, and the Push Kit
// tokens of its huawei devices. Device indexes: iOS first, then Android, then
// web, then huawei (register.ts publishes them in that order).

export interface DeviceSplit {
  ios: number;
  android: number;
  web: number;
  huawei: number;
}

/**
 * Web and huawei devices are their shares of every device; iOS takes
 * `iosShare` of the rest and Android what is left, so the four always add up
 * to `devices`.
 */
export function splitDevices(devices: number, shares: { iosShare: number; webShare: number; huaweiShare: number }): DeviceSplit {
  const web = Math.round(devices * shares.webShare);
  const huawei = Math.min(devices - web, Math.round(devices * shares.huaweiShare));
  const ios = Math.round((devices - web - huawei) * shares.iosShare);
  return { ios, android: devices - web - huawei - ios, web, huawei };
}

const HMS_PREFIX = 'hms';

/**
 * Push Kit token of device `index`: 64 characters (the API takes 32 to 512),
 * naming the index so the fake's delivery tells which device it was.
 */
export function huaweiTokenFor(index: number): string {
  return `${HMS_PREFIX}${index.toString(10).padStart(61, '0')}`;
}

/** The device index a bench Push Kit token names, or -1 for any other token. */
export function indexOfHuaweiToken(token: string): number {
  return /^hms\d{61}$/.test(token) ? Number.parseInt(token.slice(HMS_PREFIX.length), 10) : -1;
}
