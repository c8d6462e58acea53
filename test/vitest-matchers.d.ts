// Types of the aws-sdk-client-mock-vitest matchers registered by the setup file.
import 'aws-sdk-client-mock-vitest/extend';
