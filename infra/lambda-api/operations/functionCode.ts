import { InvalidParameterValueException, InvalidRequestContentException } from '../errors.js';
import { optionalString } from '../request.js';

/**
 * The package of CreateFunction's `Code` or UpdateFunctionCode's members: `ZipFile`, the zip's
 * bytes in base64 (as the SDKs and the CLI send a blob). eddy has no S3 or ECR to fetch from.
 */
export function zipFileOf(members: Record<string, unknown>): Uint8Array {
  if (
    members.S3Bucket !== undefined ||
    members.S3Key !== undefined ||
    members.S3ObjectVersion !== undefined ||
    members.ImageUri !== undefined
  )
    throw new InvalidParameterValueException(
      'eddy takes function code as ZipFile only: S3Bucket/S3Key and ImageUri packages are not supported here.',
    );
  const zip = optionalString(members, 'ZipFile');
  if (zip === undefined)
    // Lambda's message when a package names no source.
    throw new InvalidParameterValueException('Please provide a source for function code.');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(zip) || zip.length % 4 === 1)
    throw new InvalidRequestContentException('Could not parse request body into json: ZipFile is not base64');
  return Buffer.from(zip, 'base64');
}
