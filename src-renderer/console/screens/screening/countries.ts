// Countries offered as suggestions in the country field. Any ISO 3166-1 alpha-2 code can be
// typed; these are the ones analysts reach for most, with the sanctioned jurisdictions the
// shipped lists cover. Names come from the browser's own region names (Intl.DisplayNames).
export const COMMON_COUNTRIES = [
  'GB', 'US', 'DE', 'FR', 'NL', 'IE', 'ES', 'IT', 'CH', 'AT', 'BE', 'LU', 'SE', 'NO', 'DK', 'FI', 'PL',
  'CA', 'AU', 'NZ', 'JP', 'SG', 'HK', 'CN', 'IN', 'AE', 'SA', 'TR', 'IL', 'BR', 'MX', 'NG', 'ZA',
  'RU', 'BY', 'UA', 'IR', 'KP', 'SY', 'CU', 'VE', 'AF', 'IQ', 'LY', 'MM', 'SD', 'YE',
] as const;
