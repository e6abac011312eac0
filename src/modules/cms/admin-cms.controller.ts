import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentSite } from '#app/common/auth/auth.decorators.js';
import { ApiErrors } from '#app/common/openapi/api-errors.decorator.js';
import { ApiRequestExample } from '#app/common/openapi/request-example.decorator.js';
import { ReplaySubmissionDto, SubmissionResultDto } from './dto/cms.dto.js';
import { CmsSubmissionsService } from './cms-submissions.service.js';

@ApiTags('admin: cms')
@Controller('admin/cms')
export class AdminCmsController {
  constructor(private readonly submissions: CmsSubmissionsService) {}

  @Post('replay-submission')
  @Auth('admin')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Replay a website-form submission (endpoint 20)',
    description:
      'Runs the live webhook’s processing on your site: creates or updates the member from the form (the ' +
      'e-mail from the field typed `email`, others by name), e-mails a new member a password-set link, queues the contact list. ' +
      'Once per `payload.id`: a repeat answers `duplicate: true` and does nothing.',
  })
  @ApiRequestExample({
    summary: 'A sign-up form from last week',
    value: {
      triggerType: 'form_submission',
      payload: {
        id: '6321a2b9c3f5e1001f2c1a7e',
        name: 'Join the club',
        formId: '6321a2b9c3f5e1001f2c1a70',
        formElementId: 'f1e2d3c4-b5a6-4789-9abc-def012345678',
        pageId: '6321a2b9c3f5e1001f2c1a71',
        publishedPath: '/join',
        siteId: 'main',
        submittedAt: '2026-01-15T10:30:00.000Z',
        data: {
          Email: 'new.member@example.com',
          'First Name': 'Sam',
          'Last Name': 'Taylor',
          Phone: '+447700900456',
        },
        schema: [
          { fieldElementId: 'e1', fieldName: 'Email', fieldType: 'email' },
          { fieldElementId: 'e2', fieldName: 'First Name', fieldType: 'plain' },
          { fieldElementId: 'e3', fieldName: 'Last Name', fieldType: 'plain' },
          { fieldElementId: 'e4', fieldName: 'Phone', fieldType: 'tel' },
        ],
      },
    },
  })
  @ApiOkResponse({ type: SubmissionResultDto })
  @ApiErrors(400, 'UNKNOWN_SITE', 'SUBMISSION_WITHOUT_EMAIL')
  replayCmsSubmission(
    @CurrentSite() siteId: string,
    @Body() body: ReplaySubmissionDto,
  ): Promise<SubmissionResultDto> {
    return this.submissions.process(siteId, body, 'replay');
  }
}
