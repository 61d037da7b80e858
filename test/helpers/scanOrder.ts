/**
 * Partition keys in the order a DynamoDB Scan visits them, as recorded against AWS (docs/dynamodb.md §6.4.2:
 * ascending first 6 hex digits of an MD5 of the key). The key codec and Scan test against these.
 */
export const RECORDED_S_SCAN_ORDER: readonly string[] = [
  '2',
  '8',
  '9',
  '1',
  '6',
  'hello',
  '0',
  '5',
  '4',
  'äáöü',
  'aardman',
  '7',
  '3',
  'zapf',
];

export const RECORDED_N_SCAN_ORDER: readonly string[] = [
  '7',
  '999.9',
  '8',
  '3',
  '2',
  '-999.9',
  '9',
  '4',
  '-0.09',
  '6',
  '1',
  '0',
  '0.012345',
  '5',
];
