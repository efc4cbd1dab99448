// The products and billable operations as an analyst reads them (verifications, reports): the one
// table in src-shared/counting.ts, which the PDF and CSV exports print too.
export { PRODUCT_LABEL } from '../../../src-shared/counting';
